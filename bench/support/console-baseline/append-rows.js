// The page a person would write without virtualisation: every event appends a DOM row as it arrives.
const rows = document.getElementById('rows');
const count = document.getElementById('count');
let total = 0;
const response = await fetch('/v1/sessions/00000000-0000-4000-8000-000000000001/events');
const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
let buffer = '';
for (;;) {
  const { value, done } = await reader.read();
  if (done) break;
  buffer += value;
  const parts = buffer.split('\n\n');
  buffer = parts.pop();
  for (const part of parts) {
    const data = part.split('\n').find((line) => line.startsWith('data: '));
    if (!data) continue;
    const event = JSON.parse(data.slice(6));
    if (event.type !== 'tool_call_started') continue;
    const row = document.createElement('div');
    row.textContent = `${event.tool} ${JSON.stringify(event.params)}`;
    rows.append(row);
    count.textContent = String(++total);
  }
}
