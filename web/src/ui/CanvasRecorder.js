// Records the canvas to a video file (WebM, by the browser's MediaRecorder).
import { download } from './download.js';

export class CanvasRecorder {
  constructor(canvas, button) {
    this.canvas = canvas;
    this.button = button;
    this.recorder = null;
    button.disabled = typeof MediaRecorder !== 'function' || !canvas.captureStream;
    button.addEventListener('click', () => (this.recorder ? this.stop() : this.start()));
  }

  start() {
    const chunks = [];
    const type = ['video/webm;codecs=vp9', 'video/webm'].find((t) => MediaRecorder.isTypeSupported(t));
    this.recorder = new MediaRecorder(this.canvas.captureStream(60), type ? { mimeType: type } : {});
    this.recorder.ondataavailable = (event) => event.data.size && chunks.push(event.data);
    this.recorder.onstop = () => download(new Blob(chunks, { type: 'video/webm' }), 'smfem.webm');
    this.recorder.start(1000);
    this.button.textContent = 'Stop recording';
    this.button.setAttribute('aria-pressed', 'true');
  }

  stop() {
    this.recorder.stop();
    this.recorder = null;
    this.button.textContent = 'Record video';
    this.button.setAttribute('aria-pressed', 'false');
  }
}
