// The one function of libphonenumber-js/core that core/phone.ts uses, named so the Worker's build keeps only what it
// reaches: a dynamic `import()` of the package keeps every export (its formatters, as-you-type, number finder), about
// 50 KiB more in the upload (docs/decisions/082-a-worker-that-starts-small.md).
export { parsePhoneNumberWithError } from "libphonenumber-js/core";
