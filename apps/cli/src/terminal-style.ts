/** ANSI styling that turns itself off when output is not a terminal (or `NO_COLOR` is set). */
export interface TerminalStyle {
  readonly colour: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const sgr =
  (enabled: boolean, open: number, close: number) =>
  (text: string): string =>
    enabled && text !== '' ? `\x1b[${open}m${text}\x1b[${close}m` : text;

/** A style with colour on or off. */
export function terminalStyle(colour: boolean): TerminalStyle {
  return {
    colour,
    bold: sgr(colour, 1, 22),
    dim: sgr(colour, 2, 22),
    red: sgr(colour, 31, 39),
    green: sgr(colour, 32, 39),
    yellow: sgr(colour, 33, 39),
    cyan: sgr(colour, 36, 39),
  };
}

/** Colour when writing to a terminal, unless `NO_COLOR` asks otherwise (https://no-color.org). */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): TerminalStyle {
  return terminalStyle(Boolean(stream.isTTY) && !env.NO_COLOR);
}
