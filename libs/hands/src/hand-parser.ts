import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Hand, HandRejection, HandRejectionReason } from '@talon/contracts';
import { Cron } from 'croner';
import { IANAZone } from 'luxon';
import { parse as parseToml } from 'smol-toml';
import { handIdProblem, HAND_FILE_SUFFIX } from './hand-id-rules.js';
import { readOpenFangHand, type HandDraft } from './openfang-dialect.js';
import { HandFieldProblem, isTable, TomlTable } from './toml-table.js';
import { readZclawHand } from './zclaw-dialect.js';

/** Largest HAND.toml accepted, in bytes. */
export const MAX_HAND_FILE_BYTES = 64 * 1024;

/** The outcome of parsing one HAND.toml. */
export type HandParseResult = { ok: true; hand: Hand } | { ok: false; rejection: HandRejection };

/** Options of {@link parseHandText}. */
export interface HandParseOptions {
  /** Path of the file, for messages; its `<id>.HAND.toml` name must match the declared id. */
  path: string;
  /**
   * Names of the tools that exist (the live catalog). When given, a hand naming any other tool is refused
   * with that name. Default: not checked.
   */
  knownTools?: readonly string[];
}

function reject(reason: HandRejectionReason, message: string, path: string, id?: string): HandParseResult {
  return { ok: false, rejection: { reason, message, path, ...(id !== undefined ? { id } : {}) } };
}

/**
 * Parses a HAND.toml in either dialect (a `[hand]` table is ZCLAW, a top-level `id` is OpenFang) into the
 * one {@link Hand} shape. Never throws for bad content: every problem is a rejection with a stable reason.
 */
export function parseHandText(text: string, options: HandParseOptions): HandParseResult {
  const { path } = options;
  if (Buffer.byteLength(text) > MAX_HAND_FILE_BYTES)
    return reject('too_large', `the file is larger than ${MAX_HAND_FILE_BYTES} bytes`, path);
  let document: Record<string, unknown>;
  try {
    document = parseToml(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return reject('bad_toml', `the TOML does not parse: ${detail}`, path);
  }
  const warnings: string[] = [];
  const root = new TomlTable(document, '', warnings);
  let draft: HandDraft;
  try {
    if (isTable(document['hand'])) {
      const hand = root.table('hand')!;
      draft = readZclawHand(hand);
      hand.finish();
    } else if (document['id'] !== undefined) {
      draft = readOpenFangHand(root);
    } else {
      return reject(
        'unknown_dialect',
        'neither a [hand] table (ZCLAW) nor a top-level id (OpenFang): say which hand this is',
        path,
      );
    }
    root.finish();
  } catch (error) {
    if (error instanceof HandFieldProblem) return reject(error.reason, error.message, path, idOf(document));
    throw error;
  }
  return validate({ ...draft, path, warnings: capWarnings(warnings) }, options);
}

/** Warnings listed per hand; a file full of unknown keys does not make a reply of thousands of lines. */
export const MAX_HAND_WARNINGS = 20;

function capWarnings(warnings: string[]): string[] {
  if (warnings.length <= MAX_HAND_WARNINGS) return warnings;
  const more = warnings.length - MAX_HAND_WARNINGS;
  return [
    ...warnings.slice(0, MAX_HAND_WARNINGS),
    `… and ${more} more unknown field${more > 1 ? 's' : ''} ignored`,
  ];
}

function idOf(document: Record<string, unknown>): string | undefined {
  const hand = document['hand'];
  const id = isTable(hand) ? (hand['id'] ?? hand['name']) : document['id'];
  return typeof id === 'string' ? id : undefined;
}

function validate(hand: Hand, options: HandParseOptions): HandParseResult {
  const { path } = options;
  if (hand.id.startsWith('_'))
    return reject(
      'reserved_id',
      `hand id "${hand.id}" starts with "_", which is reserved for system hands registered in code`,
      path,
      hand.id,
    );
  const idProblem = handIdProblem(hand.id);
  if (idProblem) return reject('invalid_id', idProblem, path, hand.id);
  const file = basename(path);
  if (file.endsWith(HAND_FILE_SUFFIX)) {
    const stem = file.slice(0, -HAND_FILE_SUFFIX.length);
    if (stem !== hand.id)
      return reject(
        'id_mismatch',
        `the file ${file} declares id "${hand.id}"; rename it to ${hand.id}${HAND_FILE_SUFFIX}`,
        path,
        hand.id,
      );
  }
  if (options.knownTools) {
    const known = new Set(options.knownTools);
    const named = [...hand.tools, ...hand.workflow.flatMap((step) => (step.tool ? [step.tool] : []))];
    const unknown = named.filter((tool) => !known.has(tool));
    if (unknown.length > 0)
      return reject(
        'unknown_tool',
        `hand "${hand.id}" names unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.map((tool) => `"${tool}"`).join(', ')}`,
        path,
        hand.id,
      );
  }
  const workflowOutside = hand.workflow.find(
    (step) => step.tool && hand.tools.length > 0 && !hand.tools.includes(step.tool),
  );
  if (workflowOutside)
    return reject(
      'invalid_field',
      `workflow step "${workflowOutside.name}" calls "${workflowOutside.tool}", which is not in the hand's tools`,
      path,
      hand.id,
    );
  const schedule = hand.triggers.schedule;
  if (schedule) {
    if (schedule.timezone && !IANAZone.isValidZone(schedule.timezone))
      return reject(
        'invalid_trigger',
        `schedule timezone "${schedule.timezone}" is not an IANA timezone`,
        path,
        hand.id,
      );
    try {
      new Cron(schedule.cron, { timezone: schedule.timezone ?? 'UTC', paused: true });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return reject(
        'invalid_trigger',
        `schedule "${schedule.cron}" is not a cron expression: ${detail}`,
        path,
        hand.id,
      );
    }
  }
  return { ok: true, hand };
}

/** Reads and parses one HAND.toml; an unreadable or oversized file is a rejection, not an exception. */
export async function readHandFile(
  path: string,
  options: Omit<HandParseOptions, 'path'> = {},
): Promise<HandParseResult> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return reject('unreadable', 'not a regular file', path);
    if (info.size > MAX_HAND_FILE_BYTES)
      return reject('too_large', `the file is larger than ${MAX_HAND_FILE_BYTES} bytes`, path);
    return parseHandText(await readFile(path, 'utf8'), { ...options, path });
  } catch (error) {
    return reject('unreadable', error instanceof Error ? error.message : String(error), path);
  }
}
