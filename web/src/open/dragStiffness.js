// A drag spring that moves a whole body of this mass at a few hertz: k = mass (2 pi 2 Hz)^2.
export const dragStiffness = (mass) => mass * (4 * Math.PI) ** 2;
