// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title TestUSDT
/// @notice A minimal ERC-20 standing in for BSC's USDT (BEP20, 18 decimals) on the local dev chain.
/// @dev Anyone may mint: this is a faucet token for development and tests, never for a real network.
contract TestUSDT {
    string public constant name = "Tether USD (dev)";
    string public constant symbol = "USDT";
    uint8 public constant decimals = 18;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        // An allowance of type(uint256).max is treated as unlimited and never decreases.
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ERC20: insufficient allowance");
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    /// @notice Dev faucet: creates `amount` new tokens for `to`. Callable by anyone.
    function mint(address to, uint256 amount) external {
        require(to != address(0), "ERC20: mint to the zero address");
        totalSupply += amount;
        unchecked {
            // Cannot overflow: no balance exceeds totalSupply, which was checked above.
            balanceOf[to] += amount;
        }
        emit Transfer(address(0), to, amount);
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "ERC20: transfer to the zero address");
        uint256 fromBalance = balanceOf[from];
        require(fromBalance >= value, "ERC20: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] = fromBalance - value;
            // Cannot overflow: the sum of all balances is totalSupply.
            balanceOf[to] += value;
        }
        emit Transfer(from, to, value);
    }

    function _approve(address owner, address spender, uint256 value) private {
        require(spender != address(0), "ERC20: approve to the zero address");
        allowance[owner][spender] = value;
        emit Approval(owner, spender, value);
    }
}
