// What deliveries call themselves in User-Agent. A unit test keeps the version equal to package.json's,
// which is not read at run time because Lambda bundles do not ship it.
export const SERVICE_NAME = 'docex';
export const SERVICE_VERSION = '0.1.0';
