/**
 * The command line of every `bin/` command, one way: node's `util.parseArgs` in strict mode, `--help` built from
 * the same description of the options, and failures as one line on stderr with no stack trace (2 for a wrong
 * command line, 1 for a command that could not do its work).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigurationError } from '../../shared/container/kit/config';

/** One option: what `util.parseArgs` takes, and what `--help` says about it. */
export interface CliOption {
  type: 'string' | 'boolean';
  short?: string;
  description: string;
  /** Applied when the option is absent, and printed as its default. */
  default?: string | boolean;
  /** The default as `--help` prints it when it is not a fixed value (one read from a variable, say). */
  defaultText?: string;
  /** The name of a string option's value in `--help`: `--month <YYYY-MM>`. */
  valueName?: string;
}

/** A named setting `--help` lists beside the options: an environment variable, a CDK context key. */
export interface CliSetting {
  name: string;
  description: string;
  default?: string;
}

/** What a command is, for its parser and its `--help`. */
export interface CommandSpec<O extends Record<string, CliOption>> {
  /** The name errors start with: `reindex: unknown option --foo (see --help)`. */
  name: string;
  /** The usage line, without `Usage: `. */
  usage: string;
  /** What the command does, as lines. */
  summary: readonly string[];
  options: O;
  /** Further settings, each list under its heading (`Environment:`). */
  settings?: readonly { heading: string; entries: readonly CliSetting[] }[];
  /** Closing remarks, as lines. */
  notes?: readonly string[];
}

type OptionValue<T extends CliOption> = T['type'] extends 'boolean' ? boolean : string;

/** The parsed options: an option with a default always has a value. */
export type CliValues<O extends Record<string, CliOption>> = {
  [K in keyof O]: O[K] extends { default: string | boolean } ? OptionValue<O[K]> : OptionValue<O[K]> | undefined;
};

/** A command that cannot go on: its message is the one line printed; exit code 2 for a wrong command line. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

/** A wrong command line that parsing alone could not catch (a bad value, options that do not go together). */
export const usageError = (message: string): CommandError => new CommandError(message, 2);

const HELP: CliOption = { type: 'boolean', short: 'h', description: 'print this help and exit' };

/**
 * Parses the command line strictly. `--help` (`-h`) prints the usage, every option with its description and
 * default, and the command's settings, then exits 0; an unknown option, a missing value or a stray argument
 * prints `<name>: <problem> (see --help)` and exits 2.
 */
export function parseCommandLine<const O extends Record<string, CliOption>>(spec: CommandSpec<O>, args: string[] = process.argv.slice(2)): CliValues<O> {
  const options = parserOptions({ ...spec.options, help: HELP });
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args, options, strict: true, allowPositionals: false }));
  } catch (error) {
    if (!isParseError(error)) throw error;
    exitOn(spec.name, usageError(describeParseError(error, args, options)));
  }
  if (values['help']) {
    process.stdout.write(helpText(spec));
    process.exit(0);
  }
  return values as CliValues<O>;
}

/**
 * Runs a command's work: a {@link CommandError} or a configuration error ends it as one line with its exit code;
 * anything else is thrown on, stack and all, as the fault it is.
 */
export async function runCommand(name: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    exitOn(name, error);
  }
}

/**
 * Ends the process on a configuration error, printing its one line (which names the variable) with exit code 1;
 * anything else is thrown on.
 */
export function refuseConfiguration(error: unknown): never {
  if (!(error instanceof ConfigurationError)) throw error;
  console.error(error.message);
  process.exit(1);
}

function exitOn(name: string, error: unknown): never {
  if (!(error instanceof CommandError)) refuseConfiguration(error);
  console.error(`${name}: ${error.message}${error.exitCode === 2 ? ' (see --help)' : ''}`);
  process.exit(error.exitCode);
}

type ParserOptions = NonNullable<ParseArgsConfig['options']>;

function parserOptions(options: Record<string, CliOption>): ParserOptions {
  const parser: ParserOptions = {};
  for (const [name, option] of Object.entries(options)) {
    parser[name] = {
      type: option.type,
      ...(option.short ? { short: option.short } : {}),
      ...(option.default !== undefined ? { default: option.default } : {}),
    } as ParserOptions[string];
  }
  return parser;
}

const isParseError = (error: unknown): error is Error => {
  const code: unknown = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
};

/** Names the first argument strict parsing refused, read again without strictness; else node's own first line. */
function describeParseError(error: Error, args: string[], options: ParserOptions): string {
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional') return `unexpected argument "${token.value}"`;
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (!option) return `unknown option ${token.rawName}`;
    if (option.type === 'string' && token.value === undefined) return `option ${token.rawName} needs a value`;
    if (option.type === 'boolean' && token.value !== undefined) return `option ${token.rawName} takes no value`;
  }
  return error.message.split('\n')[0]!;
}

const WIDTH = 100;

/** The `--help` text: usage, summary, options with descriptions and defaults, settings, notes. */
export function helpText(spec: CommandSpec<Record<string, CliOption>>): string {
  const options = Object.entries({ ...spec.options, help: HELP }).map(([name, option]) => {
    const flag = `${option.short ? `-${option.short}, ` : ''}--${name}${option.type === 'string' ? ` <${option.valueName ?? 'value'}>` : ''}`;
    const fallback = option.defaultText ?? (option.default !== undefined ? String(option.default) : undefined);
    return { name: flag, description: fallback === undefined ? option.description : `${option.description} (default: ${fallback})` };
  });
  const lines = [`Usage: ${spec.usage}`, '', ...spec.summary, '', 'Options:', ...table(options)];
  for (const section of spec.settings ?? []) {
    const entries = section.entries.map((entry) => ({
      name: entry.name,
      description: entry.default === undefined ? entry.description : `${entry.description} (default: ${entry.default})`,
    }));
    lines.push('', `${section.heading}:`, ...table(entries));
  }
  if (spec.notes?.length) lines.push('', ...spec.notes);
  return `${lines.join('\n')}\n`;
}

/** Names in a column, descriptions beside them, wrapped at {@link WIDTH} under their own column. */
function table(rows: readonly { name: string; description: string }[]): string[] {
  const column = Math.max(...rows.map((row) => row.name.length)) + 4;
  return rows.flatMap((row) => wrap(row.description, WIDTH - column).map((text, i) => (i === 0 ? `  ${row.name.padEnd(column - 2)}${text}` : `${' '.repeat(column)}${text}`)));
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/u)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}
