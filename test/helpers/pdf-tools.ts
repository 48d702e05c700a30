/**
 * Reads a PDF back the way a person would, with poppler's tools (pdftotext, pdfinfo,
 * pdftoppm; Debian's poppler-utils). Asynchronous on purpose: an end-to-end test that ran
 * them synchronously would hold its event loop while its HTTP client's keep-alive
 * connections sit idle, and would miss the server closing one before reusing it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The PDF's text: `layout` keeps the page's columns, `raw` follows the content order. */
export async function pdfText(file: string, mode: 'layout' | 'raw' = 'layout'): Promise<string> {
  const { stdout } = await run('pdftotext', [`-${mode}`, '-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** pdfinfo's report, with the page count and the first page's size in points. */
export async function pdfInfo(file: string): Promise<{ report: string; pages: number; width: number; height: number }> {
  const { stdout: report } = await run('pdfinfo', [file], { encoding: 'utf8' });
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(report);
  return { report, pages: Number(/Pages:\s+(\d+)/.exec(report)?.[1]), width: Number(size?.[1]), height: Number(size?.[2]) };
}

/** Pages as PNG files beside the PDF (`<prefix>-N.png`, or `<prefix>.png` for the first page alone). */
export async function pdfPictures(file: string, options: { resolution: number; firstPageOnly?: boolean }): Promise<void> {
  const prefix = file.replace(/\.pdf$/, '');
  const pages = options.firstPageOnly ? ['-f', '1', '-l', '1', '-singlefile'] : [];
  await run('pdftoppm', ['-png', '-r', String(options.resolution), ...pages, file, prefix]);
}
