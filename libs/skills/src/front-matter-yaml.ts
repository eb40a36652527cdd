import matter from 'gray-matter';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

/** A front matter in another language than YAML (gray-matter's `---js` and friends). */
export class UnsupportedFrontMatter extends Error {}

const refuseEngine = {
  parse: () => {
    throw new UnsupportedFrontMatter();
  },
};

/**
 * YAML through `yaml` 2 (YAML 1.2 core schema: dates and `yes`/`no` stay strings), duplicate keys tolerated
 * (the last one wins, as most loaders do), aliases capped by the library's default. Every other gray-matter
 * engine is replaced by a refusal: the JavaScript engine would eval the front matter.
 */
const MATTER_OPTIONS = {
  language: 'yaml',
  engines: {
    yaml: {
      parse: (text: string) => parseYaml(text, { uniqueKeys: false, prettyErrors: false }) as object,
      stringify: (data: object) => stringifyYaml(data),
    },
    javascript: refuseEngine,
    js: refuseEngine,
    json: refuseEngine,
    coffee: refuseEngine,
    toml: refuseEngine,
  },
};

/** A split SKILL.md: the front-matter data, the body, and what had to be repaired to read it. */
export interface FrontMatter {
  data: unknown;
  content: string;
  /** Repairs applied, in words (empty when the YAML was read as written). */
  repairs: string[];
}

/**
 * Splits and reads a SKILL.md whose text starts with a `---` line. When the YAML does not parse, the fallback
 * that other skill loaders apply is tried once: top-level and nested `key: value` lines whose plain value holds
 * a `: ` (`description: Use the discord tool: send messages`) get that value quoted. Throws the first parse
 * error when the repaired text does not parse either, and {@link UnsupportedFrontMatter} for non-YAML front
 * matter.
 */
export function readFrontMatter(text: string): FrontMatter {
  try {
    const parsed = matter(text, MATTER_OPTIONS as unknown as Parameters<typeof matter>[1]);
    return { data: parsed.data, content: parsed.content, repairs: [] };
  } catch (error) {
    if (error instanceof UnsupportedFrontMatter) throw error;
    const repaired = quoteColonValues(text);
    if (repaired.lines.length === 0) throw error;
    try {
      const parsed = matter(repaired.text, MATTER_OPTIONS as unknown as Parameters<typeof matter>[1]);
      return {
        data: parsed.data,
        content: parsed.content,
        repairs: [`quoted the value of line ${repaired.lines.join(', ')}: it holds an unquoted ": "`],
      };
    } catch {
      throw error;
    }
  }
}

const KEY_VALUE = /^(\s*(?:- )?[A-Za-z0-9_.-]+):[ \t]+(.*)$/;
/** First characters after which a value is not a plain scalar (quoted, flow, block, anchor, alias, tag, comment). */
const NOT_PLAIN = new Set(['"', "'", '[', '{', '|', '>', '&', '*', '!', '#', '%', '@', '`']);

/** Quotes plain values that contain `: ` inside the front-matter block; returns the 1-based lines changed. */
function quoteColonValues(text: string): { text: string; lines: number[] } {
  const lines = text.split('\n');
  const changed: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^---[ \t]*$/.test(line)) break;
    const match = KEY_VALUE.exec(line);
    if (!match) continue;
    const value = match[2]!.trimEnd();
    if (value.length === 0 || NOT_PLAIN.has(value[0]!) || !/:(?:\s|$)/.test(value)) continue;
    lines[i] = `${match[1]}: ${JSON.stringify(value)}`;
    changed.push(i + 1);
  }
  return { text: lines.join('\n'), lines: changed };
}
