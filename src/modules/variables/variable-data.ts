/**
 * The shape of a variable's `data`, which depends on its `type`. Pure functions: the service calls
 * them with the path of the element (`variables[2].data`) so that messages name the field.
 */

export const VARIABLE_TYPES = ['string', 'number', 'hyperlink', 'list', 'map'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

export interface StringVariableData {
  example: string;
  fallback?: string;
}
/**
 * Numbers may also arrive as strings that hold one (`{"example": 21, "fallback": "18"}` is how the
 * original product's own documentation creates a number variable). They are stored as given.
 */
export interface NumberVariableData {
  example: number | string;
  fallback?: number | string;
}
export interface HyperlinkVariableData {
  text: string;
  url: string;
}
export type ListVariableData = string[];
export type MapVariableData = Record<string, string>;

export type VariableData =
  | StringVariableData
  | NumberVariableData
  | HyperlinkVariableData
  | ListVariableData
  | MapVariableData;

/** A name must be usable as a placeholder in every export format, so it is an identifier. */
export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const VARIABLE_NAME_MAX = 64;

/** Null when `name` is a valid variable name, else the message for the field at `path`. */
export function variableNameError(name: string, path: string): string | null {
  if (VARIABLE_NAME_PATTERN.test(name) && name.length <= VARIABLE_NAME_MAX) return null;
  return (
    `${path}: '${name}' is not a valid variable name ` +
    `(1 to ${VARIABLE_NAME_MAX} letters, digits or '_', not starting with a digit)`
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `data.example`, or `data["two words"]` for a key that is not an identifier. */
const keyPath = (path: string, key: string) =>
  /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

interface Field {
  /** `numeric`: a finite JSON number, or a string that holds one in decimal notation. */
  kind: 'string' | 'numeric';
  required: boolean;
}

const NUMERIC_STRING = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A finite number, or a string such as `"18"`, `"-2.5"` or `"1e3"` (no spaces, no hex). */
export function isNumeric(value: unknown): value is number | string {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && NUMERIC_STRING.test(value) && Number.isFinite(Number(value));
}

/** Checks an object against a closed set of fields: required ones present, no others, each of its kind. */
function objectError(data: unknown, path: string, fields: Record<string, Field>): string | null {
  if (!isPlainObject(data)) return `${path} must be object`;
  for (const [name, field] of Object.entries(fields)) {
    const value = data[name];
    if (value === undefined) {
      if (field.required) return `${path}.${name} is required`;
      continue;
    }
    if (field.kind === 'string' && typeof value !== 'string') return `${path}.${name} must be string`;
    if (field.kind === 'numeric' && !isNumeric(value)) {
      return `${path}.${name} must be a number or a string holding one`;
    }
  }
  for (const key of Object.keys(data)) {
    if (!Object.hasOwn(fields, key)) return `${keyPath(path, key)} is not a known field`;
  }
  return null;
}

const checks: Record<VariableType, (data: unknown, path: string) => string | null> = {
  string: (data, path) =>
    objectError(data, path, {
      example: { kind: 'string', required: true },
      fallback: { kind: 'string', required: false },
    }),
  number: (data, path) =>
    objectError(data, path, {
      example: { kind: 'numeric', required: true },
      fallback: { kind: 'numeric', required: false },
    }),
  hyperlink: (data, path) => {
    const shape = objectError(data, path, {
      text: { kind: 'string', required: true },
      url: { kind: 'string', required: true },
    });
    if (shape) return shape;
    const { url } = data as HyperlinkVariableData;
    return URL.canParse(url) ? null : `${path}.url: '${url}' is not an absolute URL`;
  },
  list: (data, path) => {
    if (!Array.isArray(data)) return `${path} must be array`;
    if (data.length === 0) return `${path} must have at least one item`;
    const bad = data.findIndex((item) => typeof item !== 'string');
    return bad === -1 ? null : `${path}[${bad}] must be string`;
  },
  map: (data, path) => {
    if (!isPlainObject(data)) return `${path} must be object`;
    const entries = Object.entries(data);
    if (entries.length === 0) return `${path} must have at least one entry`;
    for (const [key, value] of entries) {
      if (key === '') return `${path}: keys must not be empty`;
      if (typeof value !== 'string') return `${keyPath(path, key)} must be string`;
    }
    return null;
  },
};

/** Null when `data` has the shape `type` needs, else the message for the first bad field under `path`. */
export function variableDataError(type: VariableType, data: unknown, path: string): string | null {
  return checks[type](data, path);
}
