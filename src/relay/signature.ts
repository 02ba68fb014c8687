// PLACEHOLDER until the relay branch merges: same exported signature as agreed.
export interface RelayRequest {
  secret: string;
  method: string;
  pathWithQuery: string;
  body: Uint8Array;
  customerId: string;
  now?: number;
}
export function signRelay(_r: RelayRequest): Record<string, string> {
  throw new Error('not merged yet');
}
