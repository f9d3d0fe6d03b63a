// Forged tokens that are certainly invalid. Replacing the last characters of a base64url
// signature is not: the final character carries padding bits, so another tail can decode to the
// same bytes and still verify. Changing a byte in the middle of the decoded signature always
// changes the signature.

/** `token` (a JWT) with one byte in the middle of its signature changed: never valid. */
export function forgeSignature(token: string): string {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error('not a JWT (header.payload.signature)');
  const signature = Buffer.from(parts[2] as string, 'base64url');
  if (signature.length === 0) throw new Error('a JWT without a signature');
  const middle = Math.floor(signature.length / 2);
  signature[middle] = (signature[middle] as number) ^ 0xff;
  const forged = `${parts[0]}.${parts[1]}.${signature.toString('base64url')}`;
  if (forged === token) throw new Error('the forgery did not change the token');
  return forged;
}
