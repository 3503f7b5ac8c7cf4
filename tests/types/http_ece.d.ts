// Minimal types for the parts of `http_ece` the push tests use (the package ships none).
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  interface EceParams {
    version: "aes128gcm" | "aesgcm" | "aesgcm128";
    privateKey?: ECDH;
    authSecret?: Buffer | string;
    dh?: Buffer | string;
    key?: Buffer | string;
    salt?: Buffer | string;
    keyid?: string;
    rs?: number;
  }
  const ece: {
    encrypt(buffer: Buffer, params: EceParams): Buffer;
    decrypt(buffer: Buffer, params: EceParams): Buffer;
  };
  export default ece;
}
