import { decodeHtmlEntities } from './html-entities.js';

/** A page reduced to what a reader sees: its title and its text, with headings and links kept. */
export interface ReadablePage {
  title: string;
  text: string;
}

// Elements whose content is never shown as text.
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'button',
]);
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hr',
  'html',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'ul',
]);
const TAG_NAME = /[A-Za-z][\w:-]*/y;

/** One tag read at a `<`: `eof` when it never ends (as in HTML, the rest of the page is inside it). */
type ScannedTag = { closing: boolean; name: string; attributes: string; end: number } | 'eof' | undefined;

// A hand-written scan, not a regex, so every character is read once: a page full of unterminated
// quotes or stray `<` cannot make it quadratic.
function scanTag(html: string, open: number): ScannedTag {
  let index = open + 1;
  const closing = html[index] === '/';
  if (closing) index += 1;
  TAG_NAME.lastIndex = index;
  const name = TAG_NAME.exec(html)?.[0];
  if (name === undefined) return undefined;
  const attributesStart = index + name.length;
  for (index = attributesStart; index < html.length; index += 1) {
    const char = html[index];
    if (char === '>')
      return {
        closing,
        name: name.toLowerCase(),
        attributes: html.slice(attributesStart, index),
        end: index + 1,
      };
    if (char === '"' || char === "'") {
      const quoteEnd = html.indexOf(char, index + 1);
      if (quoteEnd === -1) return 'eof';
      index = quoteEnd;
    }
  }
  return 'eof';
}

const ATTRIBUTE = /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE))
    attributes.set(match[1].toLowerCase(), decodeHtmlEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  return attributes;
}

// Hidden text is a favourite place for instructions aimed at a model; a reader would not see it.
function isHidden(attributes: Map<string, string>): boolean {
  const style = (attributes.get('style') ?? '').replace(/\s+/g, '').toLowerCase();
  return (
    attributes.has('hidden') ||
    attributes.get('aria-hidden') === 'true' ||
    style.includes('display:none') ||
    style.includes('visibility:hidden')
  );
}

function resolveLink(href: string, baseUrl: string | undefined): string | undefined {
  try {
    const url = new URL(href, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns HTML into readable text in one linear pass: scripts, styles and hidden elements dropped, headings
 * as `#` lines, list items as `- `, links as `text (url)` resolved against `baseUrl`, images by their alt
 * text, entities decoded, whitespace collapsed (kept inside `<pre>`).
 */
export function htmlToText(html: string, baseUrl?: string): ReadablePage {
  const out: string[] = [];
  let title = '';
  let firstHeading = '';
  let headingStart = 0;
  let preDepth = 0;
  let skip: { name: string; depth: number } | undefined;
  const links: { href: string | undefined; start: number }[] = [];
  let position = 0;

  const emitText = (raw: string) => {
    if (skip !== undefined || raw === '') return;
    const decoded = decodeHtmlEntities(raw);
    if (preDepth > 0) {
      out.push(decoded);
      return;
    }
    const collapsed = decoded.replace(/\s+/g, ' ');
    // After a line break or another space, a leading space is layout, not content.
    out.push(/\s$/.test(out.at(-1) ?? '\n') ? collapsed.trimStart() : collapsed);
  };

  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open === -1) {
      emitText(html.slice(position));
      break;
    }
    emitText(html.slice(position, open));
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      position = end === -1 ? html.length : end + 3;
      continue;
    }
    if (html.startsWith('<!', open) || html.startsWith('<?', open)) {
      const end = html.indexOf('>', open);
      position = end === -1 ? html.length : end + 1;
      continue;
    }
    const tag = scanTag(html, open);
    if (tag === 'eof') break;
    if (tag === undefined) {
      emitText('<');
      position = open + 1;
      continue;
    }
    position = tag.end;
    const { closing, name } = tag;

    if (skip !== undefined) {
      if (name === skip.name && !VOID.has(name)) skip.depth += closing ? -1 : 1;
      if (skip.depth === 0) skip = undefined;
      continue;
    }
    if (!closing && (name === 'title' || SKIPPED.has(name) || name === 'textarea')) {
      // Raw-text elements end at their own closing tag; nothing inside is markup.
      const end = new RegExp(`</${name}\\s*>`, 'ig');
      end.lastIndex = position;
      const found = end.exec(html);
      const content = html.slice(position, found === null ? html.length : found.index);
      position = found === null ? html.length : end.lastIndex;
      if (name === 'title' && title === '') title = decodeHtmlEntities(content).replace(/\s+/g, ' ').trim();
      if (name === 'textarea') emitText(content);
      continue;
    }
    const attributes = closing ? new Map<string, string>() : attributesOf(tag.attributes);
    if (!closing && !VOID.has(name) && !tag.attributes.trimEnd().endsWith('/') && isHidden(attributes)) {
      skip = { name, depth: 1 };
      continue;
    }
    const heading = /^h([1-6])$/.exec(name);
    if (heading !== null) {
      if (closing) {
        if (firstHeading === '') firstHeading = out.slice(headingStart).join('').trim();
        out.push('\n\n');
      } else {
        out.push(`\n\n${'#'.repeat(Number(heading[1]))} `);
        headingStart = out.length;
      }
    } else if (name === 'br') {
      out.push('\n');
    } else if (name === 'li') {
      if (!closing) out.push('\n- ');
    } else if (name === 'tr') {
      out.push('\n');
    } else if (name === 'td' || name === 'th') {
      out.push(' ');
    } else if (name === 'pre') {
      preDepth = Math.max(0, preDepth + (closing ? -1 : 1));
      out.push('\n\n');
    } else if (BLOCK.has(name)) {
      out.push('\n\n');
    } else if (name === 'img' && !closing) {
      const alt = (attributes.get('alt') ?? '').trim();
      if (alt !== '') out.push(`[image: ${alt}]`);
    } else if (name === 'a') {
      if (!closing) {
        links.push({ href: resolveLink(attributes.get('href') ?? '', baseUrl), start: out.length });
      } else {
        const link = links.pop();
        const text = out
          .slice(link?.start ?? out.length)
          .join('')
          .trim();
        if (link?.href !== undefined && text !== link.href)
          out.push(text === '' ? link.href : ` (${link.href})`);
      }
    }
  }

  const text = out
    .join('')
    .replace(/[ \t\u00A0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title: title || firstHeading, text };
}
