/** What a poster shows: the texts are already translated. */
export interface PosterContent {
  title: string;
  subtitle: string;
  codeLabel: string;
  inviteCode: string;
  link: string;
  qrDataUrl: string;
}

const WIDTH = 600;
const HEIGHT = 900;
const QR_SIZE = 320;

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('the QR image did not load'));
    image.src = src;
  });
}

/** Breaks a long link over lines that fit the poster's width. */
function wrap(context: CanvasRenderingContext2D, text: string, maxWidthPx: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const character of text) {
    if (context.measureText(line + character).width > maxWidthPx && line) {
      lines.push(line);
      line = character;
    } else {
      line += character;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Draws the poster (title, QR, invitation code, link) and answers it as a PNG data URL. */
export async function drawPoster(content: PosterContent): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  const background = context.createLinearGradient(0, 0, 0, HEIGHT);
  background.addColorStop(0, '#1a3d8f');
  background.addColorStop(1, '#0b1a3d');
  context.fillStyle = background;
  context.fillRect(0, 0, WIDTH, HEIGHT);

  context.textAlign = 'center';
  context.fillStyle = '#ffffff';
  context.font = 'bold 44px sans-serif';
  context.fillText(content.title, WIDTH / 2, 110);
  context.font = '26px sans-serif';
  context.fillText(content.subtitle, WIDTH / 2, 160);

  const qrX = (WIDTH - QR_SIZE) / 2;
  const qrY = 220;
  context.fillStyle = '#ffffff';
  context.fillRect(qrX - 20, qrY - 20, QR_SIZE + 40, QR_SIZE + 40);
  context.drawImage(await loadImage(content.qrDataUrl), qrX, qrY, QR_SIZE, QR_SIZE);

  context.fillStyle = '#ffffff';
  context.font = '26px sans-serif';
  context.fillText(content.codeLabel, WIDTH / 2, 640);
  context.font = 'bold 52px monospace';
  context.fillText(content.inviteCode, WIDTH / 2, 705);
  context.font = '18px sans-serif';
  context.fillStyle = '#c7d2f0';
  wrap(context, content.link, WIDTH - 80).forEach((line, index) => context.fillText(line, WIDTH / 2, 770 + index * 26));
  return canvas.toDataURL('image/png');
}

/** Saves an image by downloading it (the web's way; the browser puts it in the downloads). */
export function downloadImage(dataUrl: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = dataUrl;
  anchor.download = fileName;
  document.body.appendChild(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
  }
}
