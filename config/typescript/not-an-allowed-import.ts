// Where contracts/tsconfig.json and domain/tsconfig.json send every package they do not allow. No project
// lists this file, so an import that lands here fails the build with TS6307 ("... not-an-allowed-import.ts
// is not listed within the file list of project ..."), at the offending import. docs/boundaries.md
export {};
