// Preloaded into the Electronegativity process: its CSV writer starts the header write (truncate)
// and the findings write (append) as two asynchronous fs.writeFile calls, which can land in either
// order; when the append wins, the header overwrites the start of the first finding and the file
// no longer parses. Making writeFile complete in call order (synchronously, callback on the next
// tick) keeps the header first, as the tool intends.
const fs = require('node:fs');
fs.writeFile = function writeFile(file, data, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'function' ? undefined : options;
  let error = null;
  try {
    fs.writeFileSync(file, data, opts);
  } catch (e) {
    error = e;
  }
  if (cb) process.nextTick(cb, error);
};
