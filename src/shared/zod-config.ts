import { config } from 'zod/v4/core';

// Every schema module imports this first, so it runs before any schema is built.

// In the browser, zod probes whether `new Function` is allowed when it builds its first object schema;
// our CSP (script-src 'self', no 'unsafe-eval') blocks the probe and the browser reports a violation.
// Jitless parsing never probes, and forms are far too small for the JIT to matter. The server keeps
// zod's JIT.
if ('document' in globalThis) config({ jitless: true });

// Plain words where a schema has no message of its own (forms always do): what an API client or a
// person sees instead of zod's defaults ("Invalid input: expected string, received number").
const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
};

config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        if (issue.input === undefined) return 'This field is required';
        return `Must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
      case 'unrecognized_keys':
        return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
      case 'too_big':
        return issue.origin === 'string'
          ? `Must be at most ${issue.maximum} characters`
          : `Must be at most ${issue.maximum}`;
      case 'too_small':
        if (issue.origin === 'string')
          return Number(issue.minimum) <= 1
            ? 'This field is required'
            : `Must be at least ${issue.minimum} characters`;
        return `Must be at least ${issue.minimum}`;
      case 'invalid_value':
        return `Must be one of: ${issue.values.map(String).join(', ')}`;
      case 'invalid_format':
        return issue.format === 'uuid' ? 'Not a valid id' : `Not a valid ${issue.format}`;
      default:
        return undefined;
    }
  },
});
