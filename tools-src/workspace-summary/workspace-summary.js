// Summarises workspace files (size, lines, words, title) read through the host's confined `workspace-read`.
import { workspaceRead } from 'talon:tool/host@0.1.0';

const SCHEMA = {
  type: 'object',
  properties: {
    paths: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 50, description: 'Workspace-relative file paths.' },
    preview_chars: { type: 'integer', minimum: 0, maximum: 500, default: 120 },
  },
  required: ['paths'],
  additionalProperties: false,
};

export function schema() {
  return JSON.stringify(SCHEMA);
}

export function description() {
  return 'Summarises workspace files: size, line and word counts, the first heading and a short preview.';
}

function summarise(path, text, previewChars) {
  const lines = text.length === 0 ? 0 : text.split(/\r\n|\r|\n/).length;
  const words = (text.match(/\S+/g) ?? []).length;
  const heading = text.split(/\r?\n/).find((line) => /^#{1,6}\s/.test(line));
  return {
    path,
    bytes: new TextEncoder().encode(text).length,
    lines,
    words,
    title: heading ? heading.replace(/^#+\s*/, '').trim() : undefined,
    preview: text.slice(0, previewChars),
  };
}

export function execute(request) {
  let params;
  try {
    params = JSON.parse(request.params);
  } catch {
    return { error: 'params must be a JSON object' };
  }
  if (!Array.isArray(params?.paths) || params.paths.length === 0 || params.paths.some((p) => typeof p !== 'string')) {
    return { error: 'params.paths must be a non-empty array of strings' };
  }
  const previewChars = Number.isInteger(params.preview_chars) ? params.preview_chars : 120;
  const files = params.paths.slice(0, 50).map((path) => {
    try {
      return summarise(path, workspaceRead(path), previewChars);
    } catch (error) {
      return { path, error: typeof error?.payload === 'string' ? error.payload : String(error) };
    }
  });
  const readable = files.filter((file) => file.error === undefined);
  return {
    output: JSON.stringify({
      files,
      totals: { files: readable.length, bytes: readable.reduce((sum, f) => sum + f.bytes, 0), words: readable.reduce((sum, f) => sum + f.words, 0) },
    }),
  };
}
