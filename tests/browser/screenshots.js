// Pixel statistics of screenshots, computed in the page itself (no image library in Node; only
// the resulting numbers cross back, not megabytes of pixels). Two colours differ clearly when
// their RGB distance (sum of absolute differences) exceeds 40.

/**
 * Decodes the PNGs in the page and returns, as fractions of the first's pixels: `different`, the
 * pixels that differ clearly from the second's, or from the page background (#15171c) when only
 * one is given; `warm`, those whose red is at least 1.6 times their blue (the colour ramp's yellow
 * to red end, however dimly lit), and `cool`, blue at least 1.6 times red (its blue end): the
 * page's greys are neither.
 */
async function pixelStats(page, pngs) {
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
      let different = 0,
        warm = 0,
        cool = 0;
      for (let i = 0; i < a.length; i += 4) {
        let d = 0;
        for (let k = 0; k < 3; k++) d += Math.abs(a[i + k] - (b ? b[i + k] : background[k]));
        if (d > 40) different += 1;
        const [red, blue] = [a[i], a[i + 2]];
        if (red >= 40 && red >= 1.6 * blue) warm += 1;
        else if (blue >= 40 && blue >= 1.6 * red) cool += 1;
      }
      const count = a.length / 4;
      return { different: different / count, warm: warm / count, cool: cool / count };
    },
    pngs.map((png) => png.toString('base64')),
  );
}

/** Fraction of pixels that differ clearly from the page background. */
export async function nonBackgroundFraction(page, png) {
  return (await pixelStats(page, [png])).different;
}

/** Fraction of pixels that differ clearly between two screenshots of the same size. */
export async function pixelDifference(page, pngA, pngB) {
  return (await pixelStats(page, [pngA, pngB])).different;
}

/** Fractions { warm, cool } of a screenshot's pixels (pixelStats). */
export async function warmAndCool(page, png) {
  const { warm, cool } = await pixelStats(page, [png]);
  return { warm, cool };
}
