import { createCanvas, loadImage } from '@napi-rs/canvas';

/** A PNG decoded to its pixels (RGBA, row by row). */
export interface DecodedPng {
  width: number;
  height: number;
  pixels: Uint8ClampedArray;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Decodes PNG bytes as a viewer would (Skia's decoder, through @napi-rs/canvas); throws if they are not a PNG. */
export async function decodePng(bytes: Uint8Array): Promise<DecodedPng> {
  if (!Buffer.from(bytes.subarray(0, 8)).equals(SIGNATURE)) throw new Error('not a PNG: wrong signature');
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return {
    width: image.width,
    height: image.height,
    pixels: context.getImageData(0, 0, image.width, image.height).data,
  };
}

/** How many pixels have exactly the colour `#rrggbb`. */
export function pixelsOf(png: DecodedPng, hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  let count = 0;
  for (let i = 0; i < png.pixels.length; i += 4)
    if (png.pixels[i] === r && png.pixels[i + 1] === g && png.pixels[i + 2] === b) count += 1;
  return count;
}

/** The share of pixels that are not the most common colour (the background): 0 for a blank picture. */
export function inkShare(png: DecodedPng): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < png.pixels.length; i += 4) {
    const key = (png.pixels[i]! << 16) | (png.pixels[i + 1]! << 8) | png.pixels[i + 2]!;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const background = Math.max(...counts.values());
  return 1 - background / (png.width * png.height);
}
