// Sharing and embedding: the page's own URL (its settings are mirrored there), an iframe
// snippet for course pages and articles, and fullscreen for the canvas's container.

/**
 * The iframe snippet that embeds the current setup with minimal controls. It allows
 * cross-origin isolation, without which the embedded page runs the single-threaded build; the
 * embedding page must be cross-origin isolated itself for that to count (docs/page.md, "Hosting
 * the page for an embed").
 */
export function embedSnippet(location) {
  const url = new URL(location.href);
  url.searchParams.set('embed', '1');
  return (
    `<iframe src="${url.href}" width="800" height="500" style="border:0" ` +
    `allow="fullscreen; cross-origin-isolated" loading="lazy" title="Subspace Mixed FEM demo"></iframe>`
  );
}

// How long a button says "Copied" before it names itself again (the page's URL changes with
// every setting, so an old "Copied" would vouch for a link that is no longer the page's).
const kCopiedMs = 2000;

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.dataset.label ??= button.textContent; // a second click within the delay reads "Copied"
    button.textContent = 'Copied';
    clearTimeout(button.copiedTimer);
    button.copiedTimer = setTimeout(() => {
      button.textContent = button.dataset.label;
    }, kCopiedMs);
  } catch {
    // No clipboard permission (an embed, an old browser): show the text to copy by hand.
    window.prompt('Copy this:', text);
  }
}

// The fullscreen button says what it does now, whichever way fullscreen began or ended (the
// button, Escape, the browser's own control). One listener for the page: the panel, and its
// buttons with it, are rebuilt for every scene.
const fullscreenLabel = () => (document.fullscreenElement ? 'Exit fullscreen' : 'Fullscreen');
document.addEventListener('fullscreenchange', () => {
  const button = document.getElementById('fullscreen');
  if (button) button.textContent = fullscreenLabel();
});

/** Buttons: copy link, copy embed snippet, fullscreen (of `target`). */
export function sharingButtons(target) {
  const make = (id, text, onClick) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.id = id;
    button.textContent = text;
    button.addEventListener('click', () => onClick(button));
    return button;
  };
  return [
    make('copy-link', 'Link', (b) => copy(location.href, b)),
    make('copy-embed', 'Embed', (b) => copy(embedSnippet(location), b)),
    make('fullscreen', fullscreenLabel(), () => {
      if (document.fullscreenElement) document.exitFullscreen();
      else target.requestFullscreen?.();
    }),
  ];
}
