/* A photo from the phone's camera, made small enough to upload fast. */

const MAX_SIDE = 2000;

/** The photo shrunk in the browser (long side MAX_SIDE, JPEG); the file itself if it cannot be. */
export async function shrink(file) {
  if (!window.createImageBitmap) return file;
  try {
    const bitmap = await createImageBitmap(file, {imageOrientation: 'from-image'});
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.type === 'image/jpeg' && file.size < 2.5e6) return file;
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    if (bitmap.close) bitmap.close();
    return await new Promise((resolve) => canvas.toBlob((blob) => resolve(blob || file), 'image/jpeg', 0.9));
  } catch (e) {
    return file;  // formats the browser cannot decode go up as they are
  }
}
