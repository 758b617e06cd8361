// Stand-ins for the Electron binary in the tests of `npm start`: an executable that records the
// arguments it was launched with (one a line) into $STANDIN_OUT and exits 7, and a zip of it laid
// out like Electron's release zip, for a loopback mirror to serve to electron's own install.js.
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { electronPlatformPath } from '../electron-binary.ts';

export const STANDIN_EXIT_CODE = 7;

const SHELL_STAND_IN = [
  '#!/bin/sh',
  '# A stand-in for Electron: records its arguments, one a line.',
  ': > "$STANDIN_OUT"',
  'for arg in "$@"; do printf \'%s\\n\' "$arg" >> "$STANDIN_OUT"; done',
  `exit ${STANDIN_EXIT_CODE}`,
  '',
].join('\n');

const NODE_RECORDER = [
  '// Preloaded into a copy of node.exe (NODE_OPTIONS=--require) standing in for electron.exe.',
  "require('node:fs').writeFileSync(process.env.STANDIN_OUT, process.argv.slice(1).map((a) => a + '\\n').join(''));",
  `process.exit(${STANDIN_EXIT_CODE});`,
  '',
].join('\n');

/**
 * Writes a stand-in binary at `<distDir>/<platform path>` and returns the environment it needs.
 * POSIX: a shell script. Windows (where a script is not an executable): a copy of this Node
 * whose NODE_OPTIONS preloads a recorder that exits before the "app" would load.
 */
export function writeStandIn(distDir: string, recordFile: string): NodeJS.ProcessEnv {
  const binary = join(distDir, electronPlatformPath());
  mkdirSync(dirname(binary), { recursive: true });
  if (process.platform !== 'win32') {
    writeFileSync(binary, SHELL_STAND_IN);
    chmodSync(binary, 0o755);
    return { STANDIN_OUT: recordFile };
  }
  copyFileSync(process.execPath, binary);
  const recorder = join(distDir, 'recorder.cjs');
  writeFileSync(recorder, NODE_RECORDER);
  // NODE_OPTIONS reads a backslash in quotes as an escape: forward slashes work on Windows too.
  return { STANDIN_OUT: recordFile, NODE_OPTIONS: `--require "${recorder.replaceAll('\\', '/')}"` };
}

/** A zip (stored, no compression) holding the POSIX stand-in at Electron's platform path, mode 755. */
export function standInZip(): Buffer {
  return storedZip([{ name: electronPlatformPath(), data: Buffer.from(SHELL_STAND_IN), mode: 0o755 }]);
}

function storedZip(files: { name: string; data: Buffer; mode: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name);
    const crc = crc32(file.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0, 6); // flags
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(file.data.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, so the mode below counts
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(file.data.length, 20);
    central.writeUInt32LE(file.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((0o100000 | file.mode) << 16) >>> 0, 38); // regular file + mode
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, file.data);
    centrals.push(central, name);
    offset += local.length + name.length + file.data.length;
  }
  const centralBytes = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}
