// The JavaScript function Spectral runs for the same ruleset (agreement.sh);
// noTodo.rego is its Rego port, which specgate runs.
export default function noTodo(value, options) {
  if (typeof value === 'string' && value.startsWith(options.marker)) {
    return [{ message: `"${value}" is still a draft` }];
  }
  return [];
}
