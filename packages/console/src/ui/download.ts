/**
 * Reads a download as it arrives (reporting the bytes so far, for a progress display) and hands
 * it to the browser as a file. The response is the API's; nothing is inserted into the page.
 */
export const readWithProgress = async (
  body: ReadableStream<Uint8Array>,
  onProgress: (bytes: number) => void,
): Promise<Blob> => {
  const reader = body.getReader()
  const chunks: Array<Uint8Array<ArrayBuffer>> = []
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(new Uint8Array(value))
    bytes += value.byteLength
    onProgress(bytes)
  }
  return new Blob(chunks)
}

export const saveFile = (blob: Blob, name: string, type: string): void => {
  const url = URL.createObjectURL(new Blob([blob], { type }))
  const link = document.createElement("a")
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
