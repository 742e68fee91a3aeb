// Preloaded into a server by bench/profile.mjs (`node --import`): measures one window of load, asked for over
// the IPC channel. `start` notes the CPU time and starts counting what V8 allocates (from its GC events: what
// the heap held before each collection minus what it held after the previous one) and, when asked, a CPU
// profile and a sampling heap profile; `stop` answers with the totals and writes the profiles.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { GCProfiler, getHeapStatistics } from 'node:v8'

let window = null

async function start({ cpuProfile, heapProfile }) {
  const session = cpuProfile || heapProfile ? new Session() : null
  session?.connect()
  if (cpuProfile) {
    await session.post('Profiler.enable')
    // 100 µs between samples: fine enough for per-request costs of a few hundred µs.
    await session.post('Profiler.setSamplingInterval', { interval: 100 })
    await session.post('Profiler.start')
  }
  if (heapProfile) {
    await session.post('HeapProfiler.enable')
    // Samples every 4 KiB allocated on average, with the objects a collection already freed kept in the profile.
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
  }
  const gc = new GCProfiler()
  gc.start()
  window = { session, cpuProfile, heapProfile, gc, used: getHeapStatistics().used_heap_size, cpu: process.cpuUsage() }
}

async function stop({ prefix }) {
  const { session, cpuProfile, heapProfile, gc, used, cpu } = window
  window = null
  const cpuUs = process.cpuUsage(cpu)
  const usedNow = getHeapStatistics().used_heap_size
  const { statistics } = gc.stop()
  let allocated = 0
  let gcUs = 0
  let previous = used
  const collections = { scavenge: 0, other: 0 }
  for (const event of statistics) {
    allocated += Math.max(0, event.beforeGC.heapStatistics.usedHeapSize - previous)
    previous = event.afterGC.heapStatistics.usedHeapSize
    gcUs += event.cost
    collections[event.gcType === 'Scavenge' ? 'scavenge' : 'other']++
  }
  allocated += Math.max(0, usedNow - previous)
  const files = {}
  if (cpuProfile) {
    const { profile } = await session.post('Profiler.stop')
    files.cpu = `${prefix}.cpuprofile`
    writeFileSync(files.cpu, JSON.stringify(profile))
  }
  if (heapProfile) {
    const { profile } = await session.post('HeapProfiler.stopSampling')
    files.heap = `${prefix}.heapprofile`
    writeFileSync(files.heap, JSON.stringify(profile))
  }
  session?.disconnect()
  return { userUs: cpuUs.user, systemUs: cpuUs.system, allocatedBytes: allocated, gcUs, collections, files }
}

process.on('message', (message) => {
  if (message?.probe === 'start') start(message).then(() => process.send({ probe: 'started' }))
  else if (message?.probe === 'stop') stop(message).then((result) => process.send({ probe: 'stopped', result }))
})
// The IPC channel must not keep a server alive that would otherwise exit.
process.channel?.unref()
