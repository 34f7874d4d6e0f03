/**
 * A small, real PDF 1.4 made in code: one page per entry of `pages`, each a few lines of text in
 * the standard Helvetica font, with a correct cross-reference table, so any reader (pdf.js in the
 * member app, the demo's white paper, the tests) opens it. Text is limited to printable ASCII.
 */
export function simplePdf(pages: string[][], title = 'Document'): Buffer {
  const escape = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pageTree = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const info = add(`<< /Title (${escape(title)}) /Producer (Custos) >>`);
  const pageIds = pages.map((lines, index) => {
    const text = [
      'BT',
      '/F1 24 Tf',
      '72 720 Td',
      `(${escape(title)}) Tj`,
      '/F1 14 Tf',
      '0 -40 Td',
      ...lines.flatMap((line) => [`(${escape(line)}) Tj`, '0 -22 Td']),
      `(Page ${index + 1} of ${pages.length}) Tj`,
      'ET',
    ].join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`);
    return add(
      `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
    );
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  objects[pageTree - 1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;

  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
