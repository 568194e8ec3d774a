// Placeholder entry until the pages land in the next commit.
export {};
