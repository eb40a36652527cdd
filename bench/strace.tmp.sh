# run the seq bench; strace both talon processes during the measured part
MODE=seq node bench/prof.tmp.mjs > /tmp/inv/seq.out 2>&1 &
sleep 14
for pid in $(pgrep -f "orchestrator/dist/main.js|tool-worker/dist/main.js"); do timeout 2 strace -f -c -p $pid -o /tmp/inv/strace-$pid.txt & done
wait
