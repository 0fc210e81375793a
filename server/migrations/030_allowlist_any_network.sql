-- The withdrawal allowlist names any network the server carries, as the wallets do (docs/chains.md "Adding a
-- network"): an EVM network an operator configured is a key of the same form as the built-in ones. Which keys are
-- accepted is the server's to check when an address is added (accounts/protections.ts), as it checks the address.
ALTER TABLE withdrawal_allowlist DROP CONSTRAINT withdrawal_allowlist_network_check;
ALTER TABLE withdrawal_allowlist ADD CONSTRAINT withdrawal_allowlist_network_check CHECK (network ~ '^[a-z0-9_]{2,32}$');
