/** The operator's version: package.json's, the one place it is written. */
import packageJson from "../package.json" with { type: "json" }

export const OPERATOR_VERSION: string = packageJson.version
