// Preloaded into every tsc the type-check suite times (`node --import`): at exit, prints the CPU time the process used,
// user and system, on tsc's --extendedDiagnostics' pattern. On a busy machine a process waits for a core, which
// stretches its wall time but not its CPU time: the two together tell the machine's noise from tsc's work.
process.once('exit', () => {
  const { user, system } = process.cpuUsage()
  // A pipe's writes are synchronous on Linux and macOS: the line is out before the process is.
  process.stderr.write(`CPU time:                    ${((user + system) / 1e6).toFixed(2)}s\n`)
})
