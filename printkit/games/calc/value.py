"""Exact Calc scores however large: small values are Fractions, astronomic ones are symbolic.

Every Calc score is a rational number, but a pile of ``^`` cards makes it astronomic (``9+ 9^ 9^ 9^
9^ 8^ 8^`` has 400,000 digits; a thousand ``9^`` cards have about 10^953). A value is either

- a ``Fraction`` whose numerator and denominator have at most ``bits`` bits (``BITS``, about
  10,000 decimal digits): ordinary exact arithmetic, the only kind a real game meets; or
- a :class:`Big`: a quotient of polynomials N(Z)/D(Z) with Fraction coefficients in one *atom* Z.
  An atom is a power product ``b1^e1 · b2^e2 …`` > 1 (bases are the primes below 100 and at most two
  co-factors that are not perfect powers; the exponents are whole numbers without a common divisor,
  so one number has one atom), or the size of an earlier Big (its polynomials grew too long, so it
  was "folded" into a new atom). ``(9^6561 + 5)^9`` is ``(Z^13122 + 5)^9`` with ``Z = 3``.

A step whose exact result would pass ``bits`` bits becomes a Big (polynomials of more than
``MAX_TERMS`` terms or coefficients past ``bits/16`` are folded); ``+ - x ^`` on a Big are polynomial
arithmetic (``^ -1`` swaps N and D), so every value stays exactly the rational number the rules
define. The size of every intermediate is estimated before it is built.

Comparison (``compare``) is exact in these cases, which cover every comparison of the rules:

1. two Fractions;
2. a Big with a Fraction, or two Bigs with the same atom: the sign of the difference polynomial
   ``N1·D2 − N2·D1``. Terms whose degrees are close (``Z^g`` has at most ``2·coef_bits`` bits) are
   first combined exactly; then the leading term outweighs all others together (checked with a bound
   on the coefficients, "Cauchy's bound"), so its sign is the sign of the difference. Equal values
   compare equal, and a +5 bonus on one of two equal astronomic pays decides the game;
3. two Bigs with different atoms: their sizes ``log2|V|`` are bracketed with ``decimal`` at
   increasing precision (each bracket is a proven bound) until the brackets separate. Two different
   power products never have equal sizes (unique factorisation), so this ends; for folded atoms
   whose sizes agree beyond ``max_precision`` (2,500) digits :class:`CalcUndecided` is raised instead of
   guessing. No game or test has met it.

Printing: ``format_scientific`` gives ``1.96627e+695`` (digits from the same brackets) and
``exact_form`` the exact value as a power product or polynomial, e.g. ``2·3^1458``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, Union

from printkit.errors import CalcUndecided

BITS = 32_768  # 2^32,768 ≈ 10^9,864: Fraction arithmetic (gcds) grows quadratically beyond
SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97)
# Perfect powers among the rules' values come from ^ cards (2..9), so their prime roots are these.
ROOT_PRIMES = (2, 3, 5, 7)
MAX_TERMS = 24


Poly = dict  # degree (int >= 0) -> non-zero Fraction


# ---------------------------------------------------------------- integers


def _valuation(n: int, p: int) -> tuple[int, int]:
    """(v, n / p^v) with p^v the largest power of p dividing n (n > 0, p small).

    Divides by the largest power of p below 2^30 at a time: CPython divides by one such "digit" in
    linear time, while dividing by a large number takes quadratic time.
    """
    if n % p:
        return 0, n
    chunk, m = p, 1
    while chunk * p < 1 << 30:
        chunk, m = chunk * p, m + 1
    v = 0
    while True:
        q, r = divmod(n, chunk)
        if r:
            break
        n, v = q, v + m
    while n % p == 0:
        n, v = n // p, v + 1
    return v, n


def _iroot(n: int, k: int) -> int:
    """floor(n ** (1/k)) for n >= 0: the root of n's top half first, then Newton's method from above."""
    if n < 2:
        return n
    if k == 2:
        return math.isqrt(n)
    if n.bit_length() > 4000:
        t = n.bit_length() // (2 * k)
        x = (_iroot(n >> (k * t), k) + 1) << t  # at least the root, with about half its bits right
    else:
        x = 1 << -(-n.bit_length() // k)
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


@lru_cache(maxsize=None)
def _filter_primes(k: int) -> tuple[int, ...]:
    """Eight primes q = 1 (mod k): a k-th power is a k-th power residue modulo each."""
    found, q = [], 2 * k + 1
    while len(found) < 8:
        if all(q % d for d in range(2, math.isqrt(q) + 1)):
            found.append(q)
        q += 2 * k
    return tuple(found)


def _perfect_power(n: int) -> tuple[int, int]:
    """(r, k) with n = r^k, k a product of ROOT_PRIMES as large as possible (n > 1)."""
    k_total = 1
    changed = True
    while changed and n > 3:
        changed = False
        for k in ROOT_PRIMES:
            if n.bit_length() < k:
                break
            residues_ok = all(pow(n % q, (q - 1) // k, q) in (0, 1) for q in _filter_primes(k))
            if residues_ok:
                r = _iroot(n, k)
                if r**k == n:
                    n, k_total, changed = r, k_total * k, True
                    break
    return n, k_total


@lru_cache(maxsize=256)
def _factor(x: int) -> dict[int, int]:
    """x > 0 as {base: exponent}: the primes below 100, and the rest as r^k with r not a found power."""
    result: dict[int, int] = {}
    for p in SMALL_PRIMES:
        v, x = _valuation(x, p)
        if v:
            result[p] = v
    if x > 1:
        r, k = _perfect_power(x)
        result[r] = k
    return result


# ---------------------------------------------------------------- decimal brackets


def _ctx(prec: int) -> Context:
    return Context(prec=prec, Emax=MAX_EMAX, Emin=MIN_EMIN)


@lru_cache(maxsize=4096)
def _log2_small(n: int, prec: int) -> Decimal:
    ctx = _ctx(prec + 10)
    return ctx.divide(ctx.ln(Decimal(n)), ctx.ln(Decimal(2)))


def _log2_int(n: int, prec: int) -> tuple[Decimal, Decimal]:
    """A bracket of log2(n), n > 0, with relative width about 10^-prec."""
    shift = max(0, n.bit_length() - 4 * prec - 16)
    top = n >> shift
    lo = _log2_small(top, prec) + shift if shift else _log2_small(top, prec)
    hi = (_log2_small(top + 1, prec) + shift) if shift else lo
    return _widen(lo, hi, prec)


def _widen(lo: Decimal, hi: Decimal, prec: int) -> tuple[Decimal, Decimal]:
    """Widen a bracket by 10^-prec relatively plus 10^-prec: covers the rounding of every step."""
    ctx = _ctx(prec + 10)
    eps = Decimal(1).scaleb(-prec)
    return (ctx.subtract(lo, ctx.multiply(abs(lo), eps) + eps), ctx.add(hi, ctx.multiply(abs(hi), eps) + eps))


def _log2_fraction(q: Fraction, prec: int) -> tuple[Decimal, Decimal]:
    nlo, nhi = _log2_int(abs(q.numerator), prec)
    dlo, dhi = _log2_int(q.denominator, prec)
    ctx = _ctx(prec + 10)
    return _widen(ctx.subtract(nlo, dhi), ctx.subtract(nhi, dlo), prec)


def _scale(k: int, lo: Decimal, hi: Decimal, prec: int) -> tuple[Decimal, Decimal]:
    ctx = _ctx(prec + len(str(abs(k))) + 10)
    a, b = ctx.multiply(Decimal(k), lo), ctx.multiply(Decimal(k), hi)
    return _widen(min(a, b), max(a, b), prec)


def _bits_log2(q: Fraction) -> tuple[int, int]:
    """Integer bounds (lo, hi) on log2|q| from bit lengths (q non-zero)."""
    n, d = abs(q.numerator).bit_length(), q.denominator.bit_length()
    return n - 1 - d, n - d + 1


# ---------------------------------------------------------------- atoms


@dataclass(frozen=True)
class PowerAtom:
    """``Π base^exp`` > 1: bases pairwise coprime, exponents without a common divisor."""

    factors: tuple[tuple[int, int], ...]

    @property
    def key(self) -> tuple:
        return ("power", self.factors)

    def log2(self, prec: int) -> tuple[Decimal, Decimal]:
        digits = max(len(str(abs(e))) for _, e in self.factors)
        work = prec + digits + 5
        ctx = _ctx(work + 10)
        lo = hi = Decimal(0)
        for base, exp in self.factors:
            blo, bhi = _log2_int(base, work)
            a, b = _scale(exp, blo, bhi, work)
            lo, hi = ctx.add(lo, a), ctx.add(hi, b)
        return _widen(lo, hi, prec)

    def power(self, g: int) -> Fraction | None:
        """Z^g exactly (g >= 0), or None when its numerator or denominator passes 2^24 · 10^6 bits."""
        if g * sum(abs(e) * b.bit_length() for b, e in self.factors) > 24_000_000:
            return None
        value = Fraction(1)
        for base, exp in self.factors:
            value *= Fraction(base) ** (exp * g)
        return value

    def zlo(self) -> Fraction:
        return _zlo(self)

    def text(self) -> str:
        parts = []
        for base, exp in self.factors:
            b = _int_text(base)
            parts.append(b if exp == 1 else f"{b}^{_exp_text(exp)}")
        return "·".join(parts)


@dataclass(frozen=True, eq=False)
class FoldAtom:
    """|value| (or 1/|value| when ``invert``) of an earlier Big, which is astronomic."""

    value: "Big"
    invert: bool

    @property
    def key(self) -> tuple:
        return ("fold", self.invert, self.value.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FoldAtom) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def log2(self, prec: int) -> tuple[Decimal, Decimal]:
        lo, hi = self.value.log2(prec)
        return (-hi, -lo) if self.invert else (lo, hi)

    def zlo(self) -> Fraction:
        return Fraction(self.log2(20)[0])

    def text(self) -> str:
        inner = self.value.text()
        return f"1/|{inner}|" if self.invert else f"|{inner}|"


Atom = Union[PowerAtom, FoldAtom]


@lru_cache(maxsize=4096)
def _zlo(atom: PowerAtom) -> Fraction:
    """A lower bound on log2 of a power atom (an exact Fraction, for bound arithmetic)."""
    return Fraction(atom.log2(20)[0])


def _primitive(vector: dict[int, int]) -> tuple[PowerAtom, int]:
    """(atom, degree) with Π base^vector = atom^degree (degree may be negative)."""
    vector = {b: e for b, e in vector.items() if e}
    g = 0
    for e in vector.values():
        g = math.gcd(g, e)
    factors = tuple(sorted((b, e // g) for b, e in vector.items()))
    atom = PowerAtom(factors)
    lo, hi = atom.log2(20)
    if hi < 0:
        atom = PowerAtom(tuple((b, -e) for b, e in factors))
        g = -g
    return atom, g


# ---------------------------------------------------------------- polynomials


def _padd(p: Poly, q: Poly, k: Fraction | int = 1) -> Poly:
    r = dict(p)
    for d, c in q.items():
        v = r.get(d, 0) + k * c
        if v:
            r[d] = v
        else:
            r.pop(d, None)
    return r


def _pmul(p: Poly, q: Poly) -> Poly:
    r: Poly = {}
    for d1, c1 in p.items():
        for d2, c2 in q.items():
            d = d1 + d2
            v = r.get(d, 0) + c1 * c2
            if v:
                r[d] = v
            else:
                r.pop(d, None)
    return r


def _ppow(p: Poly, n: int) -> Poly:
    r: Poly = {0: Fraction(1)}
    for _ in range(n):
        r = _pmul(r, p)
    return r


def _coef_bits(p: Poly) -> int:
    return max(max(abs(c.numerator).bit_length(), c.denominator.bit_length()) for c in p.values())


def _merge_close(atom: Atom, p: Poly) -> Poly:
    """p with terms whose degree gap g leaves Z^g small combined exactly into the lower one.

    "Small" adapts to the coefficients: afterwards every gap g has g·log2(Z) above twice the
    coefficients' bit length (plus a margin), which is what makes the leading term dominate.
    """
    if not isinstance(atom, PowerAtom):
        return p
    while len(p) > 1:
        limit = 2 * _coef_bits(p) + len(p).bit_length() + 8
        z = atom.zlo()
        out: Poly = {}
        cur_d, cur_c = 0, Fraction(0)
        for d in sorted(p, reverse=True):
            if cur_c and (cur_d - d) * z <= limit:
                step = atom.power(cur_d - d)
                if step is not None:
                    cur_c, cur_d = cur_c * step + p[d], d
                    continue
            if cur_c:
                out[cur_d] = cur_c
            cur_d, cur_c = d, p[d]
        if cur_c:
            out[cur_d] = cur_c
        if out == p:
            return p
        p = out
    return p


def _slack(atom: Atom, p: Poly) -> Fraction | float:
    """s with |other terms| <= 2^-s · |leading term| at the atom's size (inf for one term)."""
    if len(p) < 2:
        return math.inf
    z = atom.zlo()
    top = max(p)
    lead_lo = _bits_log2(p[top])[0]
    worst = min(lead_lo - _bits_log2(c)[1] + (top - d) * z for d, c in p.items() if d != top)
    return worst - (len(p) - 1).bit_length()


# ---------------------------------------------------------------- values


class Big:
    """An exact rational number N(Z)/D(Z) too large (in bits) for a Fraction; see the module doc."""

    __slots__ = ("atom", "num", "den", "arith", "_key", "_sign", "_slack", "_log2")

    def __init__(self, atom: Atom, num: Poly, den: Poly, arith: "Arithmetic"):
        self.atom, self.num, self.den, self.arith = atom, num, den, arith
        self._key = (atom.key, tuple(sorted(num.items())), tuple(sorted(den.items())))
        self._sign = self._slack = None  # computed once: a Big never changes
        self._log2: dict[int, tuple[Decimal, Decimal]] = {}

    @property
    def key(self) -> tuple:
        return self._key

    def slack(self) -> Fraction | float:
        if self._slack is None:
            self._slack = min(_slack(self.atom, self.num), _slack(self.atom, self.den))
        return self._slack

    def sign(self) -> int:
        if self._sign is None:
            if self.slack() < 1:
                raise CalcUndecided("cannot prove the sign of an astronomic value")  # text() is slow: not here
            self._sign = 1 if self.num[max(self.num)] > 0 else -1
        return self._sign

    def log2(self, prec: int) -> tuple[Decimal, Decimal]:
        """A proven bracket of log2|value|."""
        if prec not in self._log2:
            self._log2[prec] = self._log2_bracket(prec)
        return self._log2[prec]

    def _log2_bracket(self, prec: int) -> tuple[Decimal, Decimal]:
        self.sign()  # the leading terms dominate
        dn, dd = max(self.num), max(self.den)
        e = dn - dd
        lo, hi = _log2_fraction(self.num[dn], prec)
        if e:
            zlo, zhi = self.atom.log2(prec + len(str(abs(e))) + 5)
            a, b = _scale(e, zlo, zhi, prec)
            ctx = _ctx(prec + 20)
            lo, hi = ctx.add(lo, a), ctx.add(hi, b)
        # The other terms change |N| and |D| by factors within 1 ± 2^-s (s >= 1), so log2|V| moves by
        # at most 2 · 3 · 2^-s; below 2^-(4·prec + 64) that is covered by the final widening.
        s = self.slack()
        if s != math.inf:
            ctx = _ctx(prec + 20)
            exponent = max(math.floor(-s), -(4 * prec + 64))
            width = ctx.multiply(ctx.power(Decimal(2), exponent), Decimal(8))
            lo, hi = ctx.subtract(lo, width), ctx.add(hi, width)
        return _widen(lo, hi, prec)

    def text(self) -> str:
        return _rational_text(self.atom, self.num, self.den)

    # Python's operators: comparisons and + - with numbers and values (used by engines and bots).
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (int, float, Fraction, Big)):
            return NotImplemented
        return self.arith.compare(self, other) == 0

    def __hash__(self) -> int:
        return hash(self._key)

    def __lt__(self, other: Any) -> bool:
        return self.arith.compare(self, other) < 0

    def __le__(self, other: Any) -> bool:
        return self.arith.compare(self, other) <= 0

    def __gt__(self, other: Any) -> bool:
        return self.arith.compare(self, other) > 0

    def __ge__(self, other: Any) -> bool:
        return self.arith.compare(self, other) >= 0

    def __add__(self, other: Any) -> Value:
        if isinstance(other, (int, Fraction)):
            return self.arith.add(self, Fraction(other))
        if isinstance(other, Big):
            return self.arith.plus(self, other)
        return NotImplemented

    __radd__ = __add__

    def __float__(self) -> float:
        """The nearest float, or ±inf / ±0.0 beyond the float range (:func:`to_float`)."""
        return to_float(self)

    def __neg__(self) -> Value:
        return self.arith.times(self, -1)

    def __sub__(self, other: Any) -> Value:
        if isinstance(other, (int, Fraction, Big)):
            return self + (-other)
        return NotImplemented

    def __rsub__(self, other: Any) -> Value:
        return (-self) + other

    def __repr__(self) -> str:
        return f"Big({self.text()})"

    def __str__(self) -> str:
        return self.text()


Value = Union[Fraction, Big]


class Arithmetic:
    """Exact Calc arithmetic with Fractions up to ``bits`` bits and Bigs beyond (see module doc)."""

    def __init__(self, bits: int = BITS, max_precision: int = 2_500):
        self.bits = bits
        self.coef_bits = max(bits // 16, 16)
        self.max_precision = max_precision

    def is_small(self, q: Fraction) -> bool:
        return abs(q.numerator).bit_length() <= self.bits and q.denominator.bit_length() <= self.bits

    # -------------------------------------------------------- construction

    def _from_fraction(self, x: Fraction, n: int) -> Value:
        """x^n (x a non-zero Fraction) as a value, built without computing x^n when it is large."""
        num, den = abs(x.numerator), x.denominator
        vector: dict[int, int] = {}
        for b, e in _factor(num).items():
            vector[b] = vector.get(b, 0) + e * n
        for b, e in _factor(den).items():
            vector[b] = vector.get(b, 0) - e * n
        negative = x < 0 and n % 2 == 1
        if not vector:
            return Fraction(-1 if negative else 1)
        atom, degree = _primitive(vector)
        sign = Fraction(-1 if negative else 1)
        if degree > 0:
            return self._make(atom, {degree: sign}, {0: Fraction(1)})
        return self._make(atom, {0: sign}, {-degree: Fraction(1)})

    def _small_or_big(self, q: Fraction) -> Value:
        return q if self.is_small(q) else self._from_fraction(q, 1)

    def _make(self, atom: Atom, num: Poly, den: Poly, fold: bool = True) -> Value:
        """The value N/D in canonical shape: a Fraction when it is one, else a (possibly folded) Big."""
        if not num:
            return Fraction(0)
        num = _merge_close(atom, num)
        den = _merge_close(atom, den)
        if not num:
            return Fraction(0)
        low = min(min(num), min(den))
        if low:
            num = {d - low: c for d, c in num.items()}
            den = {d - low: c for d, c in den.items()}
        lc = den[max(den)]
        if lc != 1:
            num = {d: c / lc for d, c in num.items()}
            den = {d: c / lc for d, c in den.items()}
        if set(num) == set(den):
            d0 = next(iter(num))
            q = num[d0] / den[d0]
            if all(num[d] == q * den[d] for d in num):
                return self._small_or_big(q)
        if len(num) == 1 and len(den) == 1 and isinstance(atom, PowerAtom):
            return self._monomial(atom, num, den)
        if fold and (len(num) + len(den) > MAX_TERMS or max(_coef_bits(num), _coef_bits(den)) > self.coef_bits):
            return self._fold(Big(atom, num, den, self))
        return Big(atom, num, den, self)

    def _monomial(self, atom: PowerAtom, num: Poly, den: Poly) -> Value:
        """c·Z^e with the whole-number part of c folded into a new atom: one atom per number."""
        (dn, c), = num.items()
        (dd, _), = den.items()
        e = dn - dd
        vector = {b: x * e for b, x in atom.factors}
        rest_num, rest_den = abs(c.numerator), c.denominator
        for b in list(SMALL_PRIMES) + [b for b, _ in atom.factors if b > 97]:
            v, rest_num = _valuation(rest_num, b) if rest_num > 1 else (0, rest_num)
            w, rest_den = _valuation(rest_den, b) if rest_den > 1 else (0, rest_den)
            if v - w:
                vector[b] = vector.get(b, 0) + v - w
        if max(rest_num.bit_length(), rest_den.bit_length()) > self.coef_bits:
            # A large coefficient becomes part of the atom too (its own bases), never a fold.
            for b, x in _factor(rest_num).items() if rest_num > 1 else ():
                vector[b] = vector.get(b, 0) + x
            for b, x in _factor(rest_den).items() if rest_den > 1 else ():
                vector[b] = vector.get(b, 0) - x
            rest_num = rest_den = 1
        vector = {b: x for b, x in vector.items() if x}
        rest = Fraction(rest_num, rest_den) * (1 if c > 0 else -1)
        if not vector:
            return rest
        new_atom, degree = _primitive(vector)
        if degree > 0:
            num2, den2 = {degree: rest}, {0: Fraction(1)}
        else:
            num2, den2 = {0: rest}, {-degree: Fraction(1)}
        return Big(new_atom, num2, den2, self)

    def _fold(self, big: Big) -> Value:
        """``big`` as ±W, ±1/W or q ± 1/W for a new atom W (keeps polynomials short)."""
        e = max(big.num) - max(big.den)
        s = Fraction(big.sign())
        one = Fraction(1)
        if e > 0:
            return Big(FoldAtom(big, False), {1: s}, {0: one}, self)
        if e < 0:
            return Big(FoldAtom(big, True), {0: s}, {1: one}, self)
        q = big.num[max(big.num)]
        rest = self.add(big, -q)
        if isinstance(rest, Fraction):
            return rest + q
        r = Fraction(rest.sign()) if isinstance(rest, Big) else Fraction(1)
        return Big(FoldAtom(rest, True), {1: q, 0: r}, {1: one}, self)

    # -------------------------------------------------------- the four operations with a card number

    def add(self, value: Value, n: Fraction | int) -> Value:
        if isinstance(value, Fraction):
            return self._small_or_big(value + n)
        return self._make(value.atom, _padd(value.num, value.den, Fraction(n)), value.den)

    def times(self, value: Value, n: Fraction | int) -> Value:
        if n == 0:
            return Fraction(0)
        if isinstance(value, Fraction):
            return self._small_or_big(value * n)
        return self._make(value.atom, {d: c * n for d, c in value.num.items()}, value.den)

    def power(self, value: Value, n: int) -> Value:
        """value ** n for a card number n (-1..9); the caller handles 0 ** -1."""
        if n == 0:
            return Fraction(1)
        if n == 1:
            return value
        if isinstance(value, Fraction):
            if value == 0:
                return value
            if n < 0:
                return self._small_or_big(1 / value) if n == -1 else self.power(self._small_or_big(1 / value), -n)
            # Estimate the size before building it: n times the larger bit length.
            size = n * max(abs(value.numerator).bit_length(), value.denominator.bit_length())
            if size <= self.bits + 64:
                return self._small_or_big(value**n)
            return self._from_fraction(value, n)
        if n < 0:
            flipped = self._make(value.atom, dict(value.den), dict(value.num))
            return flipped if n == -1 else self.power(flipped, -n)
        if len(value.num) == 1 and len(value.den) == 1:
            (dn, c), = value.num.items()
            (dd, _), = value.den.items()
            return self._make(value.atom, {dn * n: c**n}, {dd * n: Fraction(1)})
        terms = (len(value.num) - 1) * n + 1 + (len(value.den) - 1) * n + 1  # at most, after the power
        if terms > MAX_TERMS or max(_coef_bits(value.num), _coef_bits(value.den)) * n > self.coef_bits:
            value = self._fold(value)  # at most two terms over one: its power is short
            if not isinstance(value, Big):
                return self.power(value, n)
        return self._make(value.atom, _ppow(value.num, n), _ppow(value.den, n))

    def plus(self, a: Value, b: Value) -> Value:
        """a + b for two values; Bigs must share an atom (else CalcUndecided)."""
        if isinstance(b, Fraction):
            return self.add(a, b) if isinstance(a, Big) else self._small_or_big(a + b)
        if isinstance(a, Fraction):
            return self.add(b, a)
        if a.atom.key != b.atom.key:
            raise CalcUndecided("two astronomic values have no common form to add exactly")
        num = _padd(_pmul(a.num, b.den), _pmul(b.num, a.den))
        return self._make(a.atom, num, _pmul(a.den, b.den), fold=False)

    # -------------------------------------------------------- order

    def sign(self, value: Value) -> int:
        if isinstance(value, Fraction):
            return (value > 0) - (value < 0)
        return value.sign()

    def compare(self, a: Any, b: Any) -> int:
        """-1, 0 or 1 as a < b, a == b, a > b, exactly (see the module doc for the one exception)."""
        if not isinstance(a, Big) and not isinstance(b, Big):
            return (a > b) - (a < b)
        if not isinstance(a, Big):
            return -self.compare(b, a)
        if isinstance(b, float) and not math.isfinite(b):  # a float bound from the bots' estimates
            return -1 if b > 0 else 1
        if isinstance(b, Big) and a.key == b.key:
            return 0
        if isinstance(b, Big) and a.atom.key != b.atom.key:
            return self._compare_sizes(a, b)
        try:
            return self.sign(self._difference(a, b))
        except CalcUndecided:
            return self._compare_sizes(a, b)

    def _difference(self, a: Big, b: Any) -> Value:
        """a - b exactly, for b a number or a Big with a's atom (never folded: only its sign is used)."""
        if isinstance(b, Big):
            num = _padd(_pmul(a.num, b.den), _pmul(b.num, a.den), -1)
            return self._make(a.atom, num, _pmul(a.den, b.den), fold=False)
        return self._make(a.atom, _padd(a.num, a.den, -Fraction(b)), a.den, fold=False)

    def _compare_sizes(self, a: Big, b: Value) -> int:
        sa, sb = self.sign(a), self.sign(b)
        if sa != sb:
            return 1 if sa > sb else -1
        prec = 30
        while prec <= self.max_precision:
            alo, ahi = a.log2(prec)
            blo, bhi = b.log2(prec) if isinstance(b, Big) else _log2_fraction(b, prec)
            if ahi < blo:
                return -sa
            if bhi < alo:
                return sa
            prec *= 2
        raise CalcUndecided(f"cannot decide the order of two astronomic values within {self.max_precision} digits")


DEFAULT = Arithmetic()


def evaluate(value: Value) -> Fraction:
    """The exact Fraction of a value (as large as it is: for checks on values of modest size)."""
    if isinstance(value, Fraction):
        return value
    atom = value.atom
    if isinstance(atom, PowerAtom):
        z = Fraction(1)
        for base, exp in atom.factors:
            z *= Fraction(base) ** exp
    else:
        inner = abs(evaluate(atom.value))
        z = 1 / inner if atom.invert else inner
    return sum((c * z**d for d, c in value.num.items()), Fraction(0)) / sum(
        (c * z**d for d, c in value.den.items()), Fraction(0))


# ---------------------------------------------------------------- printing


def log10_bracket(value: Value, prec: int = 30) -> tuple[Decimal, Decimal]:
    """A proven bracket of log10|value| (value non-zero)."""
    if isinstance(value, Fraction):
        lo, hi = _log2_fraction(value, prec)
    else:
        lo, hi = value.log2(prec)
    ctx = _ctx(prec + 20)
    l2 = ctx.divide(ctx.ln(Decimal(2)), ctx.ln(Decimal(10)))
    return _widen(ctx.multiply(lo, l2), ctx.multiply(hi, l2), prec)


def format_scientific(value: Value, digits: int = 6) -> str:
    """``1.96627e+695`` (``digits`` significant digits); ``0`` for zero; any size."""
    sign = value.sign() if isinstance(value, Big) else (value > 0) - (value < 0)
    if sign == 0:
        return "0"
    rough, _ = log10_bracket(value, 10)
    extra = max(rough.adjusted() + 1, 0)  # digits before the point of log10|value|
    prec = digits + 12
    while True:
        lo, hi = log10_bracket(value, prec + extra)
        exp_lo, exp_hi = (int(x.to_integral_value(rounding="ROUND_FLOOR")) for x in (lo, hi))
        ctx = _ctx(prec + 10)
        m_lo = _ctx(digits).plus(ctx.power(Decimal(10), ctx.subtract(lo, Decimal(exp_lo))))
        m_hi = _ctx(digits).plus(ctx.power(Decimal(10), ctx.subtract(hi, Decimal(exp_hi))))
        if (exp_lo == exp_hi and m_lo == m_hi) or prec > 400:
            break
        prec *= 2
    mantissa, exponent = m_hi, exp_hi
    if mantissa >= 10:
        mantissa, exponent = _ctx(digits).divide(mantissa, Decimal(10)), exponent + 1
    text = format(mantissa, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{'-' if sign < 0 else ''}{text}e{exponent:+d}"


def to_float(value: Value) -> float:
    """The nearest float, or ±inf / ±0.0 beyond the float range (for statistics and plots)."""
    if isinstance(value, float):
        return value
    if isinstance(value, (int, Fraction)):
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    sign = value.sign()
    lo, _ = value.log2(10)
    if lo >= 1024:
        return math.inf * sign
    if lo < -1080:
        return 0.0 * sign
    return sign * 2.0 ** float(lo)


def _int_text(n: int) -> str:
    """A whole number n >= 0: all digits up to 40, else the first and last digits and the count."""
    if n.bit_length() < 130:
        return str(n)
    count = Decimal(n).adjusted() + 1
    head = n // 10 ** (count - 8)
    tail = n % 10**8
    return f"{head}…{tail:08d} ({count} digits)"


def _exp_text(e: int) -> str:
    if abs(e) < 10**15:
        return str(e) if e >= 0 else f"({e})"
    factors = _factor(abs(e))
    parts = [(_int_text(b) if x == 1 else f"{b}^{x}") for b, x in sorted(factors.items())]
    text = "·".join(parts)
    return f"({'-' if e < 0 else ''}{text})"


def _power_text(atom: Atom, d: int) -> str:
    if isinstance(atom, PowerAtom):
        if d == 1:
            return atom.text()
        return "·".join(f"{_int_text(b)}^{_exp_text(e * d)}" for b, e in atom.factors)
    base = f"({atom.text()})"
    return base if d == 1 else f"{base}^{_exp_text(d)}"


def _coef_text(c: Fraction) -> str:
    n, d = abs(c.numerator), c.denominator
    text = _int_text(n) if d == 1 else f"{_int_text(n)}/{_int_text(d)}"
    return text


def _poly_text(atom: Atom, p: Poly) -> str:
    terms = []
    for d in sorted(p, reverse=True):
        c = p[d]
        if d == 0:
            body = _coef_text(c)
        elif abs(c) == 1:
            body = _power_text(atom, d)
        else:
            body = f"{_coef_text(c)}·{_power_text(atom, d)}"
        terms.append(("-" if c < 0 else "+", body))
    text = ("-" if terms[0][0] == "-" else "") + terms[0][1]
    for sign, body in terms[1:]:
        text += f" {sign} {body}"
    return text


def _rational_text(atom: Atom, num: Poly, den: Poly) -> str:
    top = _poly_text(atom, num)
    if den == {0: 1}:
        return _shorten(top)
    bottom = _poly_text(atom, den)
    if len(num) > 1:
        top = f"({top})"
    if len(den) > 1 or (len(den) == 1 and "·" in bottom):
        bottom = f"({bottom})"
    return _shorten(f"{top}/{bottom}")


def _shorten(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[: limit // 2] + " … " + text[-limit // 2:]


def exact_form(value: Value) -> str:
    """The exact value as text: ``52``, ``7/3``, ``2·3^1458``, ``3^13122 + 5``.

    Fractions of more than 40 digits are written as power products when they factor over the
    primes below 100 (and any one other power), else by their digit count.
    """
    if isinstance(value, Big):
        return value.text()
    n, d = value.numerator, value.denominator
    if abs(n).bit_length() < 130 and d.bit_length() < 130:
        return str(n) if d == 1 else f"{n}/{d}"
    sign = "-" if n < 0 else ""
    return sign + _factored_text(abs(n)) + ("" if d == 1 else f"/{_factored_text(d)}")


def _factored_text(n: int) -> str:
    if n.bit_length() < 130:
        return str(n)
    factors = _factor(n)
    return "·".join(_int_text(b) if e == 1 else f"{_int_text(b)}^{e}" for b, e in sorted(factors.items()))
