"""Symbol tables shared by the renderings and by matching: one table per kind of symbol."""

from __future__ import annotations

#: Greek small letters by LaTeX name, alpha..omega (U+03B1..U+03C9, skipping final sigma U+03C2).
GREEK_LETTERS: dict[str, str] = {
    name: chr(0x3B1 + i + (1 if i >= 17 else 0))
    for i, name in enumerate(
        (
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
            "sigma tau upsilon phi chi psi omega"
        ).split()
    )
}

#: LaTeX's variant Greek letters, by name.
GREEK_VARIANTS: dict[str, str] = {
    "varepsilon": "ε", "vartheta": "θ", "varphi": "φ", "varrho": "ρ", "varsigma": "ς", "varpi": "π",
}
