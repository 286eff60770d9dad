import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {FileTooLargeError, NotRegularFileError, readRegularFile} from '../../../src/internal/regular-file.ts';

const folder = mkdtempSync(join(tmpdir(), 'stratos-regular-file-'));
after(() => rmSync(folder, {recursive: true, force: true}));

test('a regular file is read whole, through a symbolic link too', () => {
  const file = join(folder, 'plain.txt');
  writeFileSync(file, 'x'.repeat(100_000));
  symlinkSync(file, join(folder, 'link.txt'));
  assert.equal(readRegularFile(file).length, 100_000);
  assert.equal(readRegularFile(join(folder, 'link.txt')).toString('utf8'), 'x'.repeat(100_000));
});

test('a FIFO, a directory and devices are refused by kind without reading or waiting', () => {
  const fifo = join(folder, 'fifo');
  execFileSync('mkfifo', [fifo]);
  mkdirSync(join(folder, 'dir'));
  for (const [path, kind] of [
    [fifo, 'a FIFO (named pipe)'],
    [join(folder, 'dir'), 'a directory'],
    ['/dev/zero', 'a character device'],
    ['/dev/null', 'a character device'],
  ] as const) {
    assert.throws(
      () => readRegularFile(path),
      (error: unknown) => error instanceof NotRegularFileError && error.kind === kind && error.path === path,
    );
  }
});

test('missing files and link loops are the file system errors', () => {
  symlinkSync(join(folder, 'loop-b'), join(folder, 'loop-a'));
  symlinkSync(join(folder, 'loop-a'), join(folder, 'loop-b'));
  assert.throws(() => readRegularFile(join(folder, 'absent')), {code: 'ENOENT'});
  assert.throws(() => readRegularFile(join(folder, 'loop-a')), {code: 'ELOOP'});
});

test('maxBytes refuses a larger file; check runs on the descriptor before anything is read', () => {
  const file = join(folder, 'sized.txt');
  writeFileSync(file, '0123456789');
  assert.equal(readRegularFile(file, {maxBytes: 10}).toString('utf8'), '0123456789');
  assert.throws(() => readRegularFile(file, {maxBytes: 9}), FileTooLargeError);
  const seen: number[] = [];
  readRegularFile(file, {check: (stats) => seen.push(stats.size)});
  assert.deepEqual(seen, [10]);
  assert.throws(
    () =>
      readRegularFile(file, {
        check: () => {
          throw new Error('refused');
        },
      }),
    /refused/,
  );
});
