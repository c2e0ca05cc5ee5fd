// Pixel statistics of screenshots, computed in the page itself (no image library in Node; only
// the resulting number crosses back, not megabytes of pixels). Two colours differ clearly when
// their RGB distance (sum of absolute differences) exceeds 40.

/**
 * Decodes the PNGs in the page and returns the fraction of pixels of the first that differ
 * clearly from the second, or from the page background (#15171c) when only one is given.
 */
async function fraction(page, pngs) {
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
        pixels.push(context.getImageData(0, 0, image.width, image.height).data);
      }
      const [a, b] = pixels;
      const background = [0x15, 0x17, 0x1c];
      let count = 0;
      for (let i = 0; i < a.length; i += 4) {
        let d = 0;
        for (let k = 0; k < 3; k++) d += Math.abs(a[i + k] - (b ? b[i + k] : background[k]));
        if (d > 40) count += 1;
      }
      return count / (a.length / 4);
    },
    pngs.map((png) => png.toString('base64')),
  );
}

/** Fraction of pixels that differ clearly from the page background. */
export function nonBackgroundFraction(page, png) {
  return fraction(page, [png]);
}

/** Fraction of pixels that differ clearly between two screenshots of the same size. */
export function pixelDifference(page, pngA, pngB) {
  return fraction(page, [pngA, pngB]);
}

/**
 * Fractions of a screenshot's pixels that are warm (red at least 1.6 times blue: the colour
 * ramp's yellow to red end, however dimly lit) and cool (blue at least 1.6 times red: its blue
 * end); the page's greys are neither.
 */
export function warmAndCool(page, png) {
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, image.width, image.height).data;
    let warm = 0,
      cool = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, b] = [data[i], data[i + 2]];
      if (r >= 40 && r >= 1.6 * b) warm += 1;
      else if (b >= 40 && b >= 1.6 * r) cool += 1;
    }
    const pixels = data.length / 4;
    return { warm: warm / pixels, cool: cool / pixels };
  }, png.toString('base64'));
}
