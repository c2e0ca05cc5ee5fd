// Pixel statistics of screenshots, computed in the page itself (no image library in Node).

async function decode(page, pngs) {
  return page.evaluate(
    async (images) => {
      const pixels = [];
      for (const base64 of images) {
        const image = new Image();
        image.src = `data:image/png;base64,${base64}`;
        await image.decode();
        const canvas = new OffscreenCanvas(image.width, image.height);
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        pixels.push(Array.from(context.getImageData(0, 0, image.width, image.height).data));
      }
      return pixels;
    },
    pngs.map((png) => png.toString('base64')),
  );
}

/** Fraction of pixels that differ clearly from the page background (#15171c). */
export async function nonBackgroundFraction(page, png) {
  const [rgba] = await decode(page, [png]);
  const background = [0x15, 0x17, 0x1c];
  let count = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    const d =
      Math.abs(rgba[i] - background[0]) +
      Math.abs(rgba[i + 1] - background[1]) +
      Math.abs(rgba[i + 2] - background[2]);
    if (d > 40) count += 1;
  }
  return count / (rgba.length / 4);
}
