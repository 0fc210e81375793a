// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// A stand-in for Tether USD on a local node (tests/support/evm-token.ts compiles it): OpenZeppelin's ERC-20 with
/// USDT's name, symbol and 6 decimals, so amounts in tests have USDT's scale; only the deployer mints.
contract TetherUSD is ERC20, Ownable {
    constructor() ERC20("Tether USD", "USDT") Ownable(msg.sender) {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 units) external onlyOwner {
        _mint(to, units);
    }
}
