import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { UploadFolder } from '../../src/http/UploadFolder.js'

const temp = mkdtempSync(join(tmpdir(), 'fw-upload-folder-test-'))
const previousTmpdir = process.env.TMPDIR
process.env.TMPDIR = temp
afterAll(() => {
  if (previousTmpdir === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = previousTmpdir
  rmSync(temp, { recursive: true, force: true })
})

describe('UploadFolder', () => {
  it('makes one fw-upload-* folder in the OS temporary folder on the first file, and removes it whole', async () => {
    const folder = new UploadFolder()
    expect(readdirSync(temp)).toEqual([])
    const first = await folder.newFile()
    const second = await folder.newFile()
    expect(dirname(first)).toBe(dirname(second))
    expect(dirname(first)).toMatch(new RegExp(`^${temp}/fw-upload-`))
    await writeFile(first, 'a')
    await writeFile(second, 'b')

    await folder.discard()
    expect(existsSync(dirname(first))).toBe(false)
    await expect(folder.newFile()).rejects.toThrow('The request is over: its upload folder was removed')
  })

  it('waits for the work it holds before removing the folder, so that no file lands after it', async () => {
    const folder = new UploadFolder()
    let wrote: string | undefined
    folder.hold(
      (async () => {
        const path = await folder.newFile()
        await new Promise((wake) => setTimeout(wake, 50))
        await writeFile(path, 'late')
        wrote = path
      })(),
    )
    await folder.discard()
    expect(wrote).toBeDefined()
    expect(existsSync(dirname(wrote!))).toBe(false)
  })

  it('discards nothing, and makes nothing, when no file was asked for', async () => {
    await new UploadFolder().discard()
    expect(readdirSync(temp)).toEqual([])
  })

  it('is removed when the process exits, where no response told it to go', async () => {
    const module = fileURLToPath(new URL('../../src/http/UploadFolder.ts', import.meta.url))
    const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url))
    const script = `import { UploadFolder } from ${JSON.stringify(module)}; console.log(await new UploadFolder().newFile())`
    const { stdout } = await promisify(execFile)(process.execPath, [tsx, '--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: temp } })
    expect(stdout.trim()).toMatch(new RegExp(`^${temp}/fw-upload-`))
    // (tsx keeps a cache of its own there.)
    expect(readdirSync(temp).filter((name) => name.startsWith('fw-upload-'))).toEqual([])
  })
})
