// Word, line and character counts and the most frequent words of a text. Pure computation: no host imports beyond log.
import { log } from 'talon:tool/host@0.1.0';

const SCHEMA = {
  type: 'object',
  properties: {
    text: { type: 'string', description: 'The text to analyse.' },
    top: { type: 'integer', minimum: 0, maximum: 100, default: 5, description: 'How many frequent words to list.' },
  },
  required: ['text'],
  additionalProperties: false,
};

export function schema() {
  return JSON.stringify(SCHEMA);
}

export function description() {
  return 'Counts the words, lines and characters of a text and lists its most frequent words.';
}

function analyse(text, top) {
  // Word = a run of characters that are neither whitespace nor punctuation (the engine has no Unicode property escapes).
  const words = text.toLowerCase().match(/[^\s.,;:!?"()[\]{}<>/\\|@#$%^&*+=~`-]+/g) ?? [];
  const counts = new Map();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  const topWords = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, top)
    .map(([word, count]) => ({ word, count }));
  return {
    characters: [...text].length,
    words: words.length,
    lines: text.length === 0 ? 0 : text.split(/\r\n|\r|\n/).length,
    uniqueWords: counts.size,
    topWords,
  };
}

export function execute(request) {
  let params;
  try {
    params = JSON.parse(request.params);
  } catch {
    return { error: 'params must be a JSON object' };
  }
  if (typeof params?.text !== 'string') return { error: 'params.text must be a string' };
  const top = params.top === undefined ? 5 : params.top;
  if (!Number.isInteger(top) || top < 0 || top > 100) return { error: 'params.top must be an integer from 0 to 100' };
  log('debug', `analysing ${params.text.length} characters`);
  return { output: JSON.stringify(analyse(params.text, top)) };
}
