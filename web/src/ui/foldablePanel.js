// The control panel folds away (the canvas then has the screen to itself): folded at first on
// phones, where it would cover most of the view. The status line and notices stay in sight.
export function foldablePanel(button, body, { folded }) {
  const set = (fold) => {
    body.hidden = fold;
    button.setAttribute('aria-expanded', String(!fold));
    button.textContent = fold ? 'Show controls' : 'Hide controls';
  };
  set(folded);
  button.addEventListener('click', () => set(!body.hidden));
}
