/// 10^`exponent` for 0...22, the powers of ten a Double holds exactly (decimal fields have at most
/// 18 digits). A switch of constants: with a constant exponent (JSON's fixed decimals) it folds to
/// the value, with a variable one (a parsed field's scale) it compiles to a table lookup.
///
/// ```swift
/// exactPowerOfTen(3)   // 1000.0
/// ```
@inline(__always)
func exactPowerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: return 1
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    default:
        precondition(exponent == 22, "no exact power of ten for \(exponent)")
        return 1e22
    }
}
