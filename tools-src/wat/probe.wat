;; Tiny hand-written tool for fast tests. `execute` looks at params of the form {"mode":"X",...}:
;;   t = trap (unreachable), l = loop forever, g = grow memory until refused then trap,
;;   e = return an error, anything else (or no mode) = echo the params back as output.
;; Layout: return area at 1024, constant strings at 2048+, bump heap from 65536.
(module
  (import "talon:tool/host@0.1.0" "now-millis" (func $now_millis (result i64)))
  (memory (export "memory") 2)
  (global $heap (mut i32) (i32.const 65536))
  (data (i32.const 2048) "{\"type\":\"object\",\"properties\":{\"mode\":{\"type\":\"string\"}}}")
  (data (i32.const 2304) "Hand-written probe: echoes its params, or traps, loops, grows memory or fails on request.")
  (data (i32.const 2560) "failed on purpose")

  (func $string_result (param $ptr i32) (param $len i32) (result i32)
    (i32.store (i32.const 1024) (local.get $ptr))
    (i32.store (i32.const 1028) (local.get $len))
    (i32.const 1024))

  (func (export "schema") (result i32)
    (call $string_result (i32.const 2048) (i32.const 57)))

  (func (export "description") (result i32)
    (call $string_result (i32.const 2304) (i32.const 88)))

  (func (export "cabi_realloc") (param $old i32) (param $old_size i32) (param $align i32) (param $size i32) (result i32)
    (local $ptr i32)
    (local.set $ptr
      (i32.and
        (i32.sub (i32.add (global.get $heap) (local.get $align)) (i32.const 1))
        (i32.sub (i32.const 0) (local.get $align))))
    (global.set $heap (i32.add (local.get $ptr) (local.get $size)))
    (block $enough
      (loop $grow
        (br_if $enough (i32.le_u (global.get $heap) (i32.shl (memory.size) (i32.const 16))))
        (if (i32.eq (memory.grow (i32.const 1)) (i32.const -1)) (then unreachable))
        (br $grow)))
    (if (local.get $old)
      (then (memory.copy (local.get $ptr) (local.get $old) (local.get $old_size))))
    (local.get $ptr))

  (func $mode (param $p i32) (param $n i32) (result i32)
    ;; bytes 2..5 spell "mode" (little-endian 0x65646f6d) and byte 9 is the mode letter
    (if (i32.lt_u (local.get $n) (i32.const 10)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load offset=2 align=1 (local.get $p)) (i32.const 0x65646f6d)) (then (return (i32.const 0))))
    (i32.load8_u offset=9 (local.get $p)))

  (func (export "execute") (param $p i32) (param $n i32) (param $ctx_some i32) (param $ctx_p i32) (param $ctx_n i32) (result i32)
    (local $m i32)
    (local.set $m (call $mode (local.get $p) (local.get $n)))
    (if (i32.eq (local.get $m) (i32.const 116)) (then unreachable))
    (if (i32.eq (local.get $m) (i32.const 108)) (then (loop $forever (br $forever))))
    (if (i32.eq (local.get $m) (i32.const 103))
      (then
        (loop $bomb
          (br_if $bomb (i32.ne (memory.grow (i32.const 16)) (i32.const -1))))
        unreachable))
    (if (i32.eq (local.get $m) (i32.const 101))
      (then
        (i32.store8 (i32.const 1024) (i32.const 0))
        (i32.store8 (i32.const 1036) (i32.const 1))
        (i32.store (i32.const 1040) (i32.const 2560))
        (i32.store (i32.const 1044) (i32.const 17))
        (return (i32.const 1024))))
    (drop (call $now_millis))
    (i32.store8 (i32.const 1024) (i32.const 1))
    (i32.store (i32.const 1028) (local.get $p))
    (i32.store (i32.const 1032) (local.get $n))
    (i32.store8 (i32.const 1036) (i32.const 0))
    (i32.const 1024))
)
