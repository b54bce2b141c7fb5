//! The rule language: expressions over the counts of each role on one bank (or in the boat).
//!
//! ```text
//! rule    := or ( "->" or )*            implies: lowest precedence, right-associative
//! or      := and ( "or" and )*
//! and     := not ( "and" not )*
//! not     := "not" not | compare
//! compare := sum ( ("<" | "<=" | "==" | "!=" | ">=" | ">") sum )?
//! sum     := product ( ("+" | "-") product )*
//! product := unary ( "*" unary )*
//! unary   := "-" unary | INTEGER | ROLE | "(" rule ")"
//! ```
//!
//! A role name stands for the number of people of that role present; a number used as a truth
//! value is true when it is non-zero. Arithmetic saturates at the bounds of `i64` (about
//! ±9.2 x 10^18): a sum or product too large to hold stays the largest number, so comparisons
//! keep their sense. A rule is parsed by a small recursive-descent parser straight
//! into postfix code, so evaluating it is a loop over a fixed-size stack: no recursion, no
//! allocation, and nothing a hostile rule could make overflow (nesting is bounded at parse time).

use std::fmt;

/// The longest rule accepted, in characters: far beyond any puzzle's, and parsing one this long
/// takes a few megabytes.
pub const MAX_RULE_CHARS: usize = 100_000;
/// The most instructions one rule compiles to (about one for each number, role and operator).
pub const MAX_RULE_NODES: usize = 50_000;

/// The deepest nesting of parentheses, `not` and unary minus that a rule may use.
const MAX_NESTING: usize = 48;
/// The evaluation stack of a rule; rules needing more are refused when parsed.
const STACK: usize = 64;
/// The stack of the rules that need no more, nearly all: zeroing a 64-value stack for every
/// check was a fifth of a large river exploration's time.
const SMALL_STACK: usize = 8;

/// Why a rule could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleErrorKind {
    /// The rule holds nothing but blanks.
    #[error("the rule is empty")]
    Empty,
    /// A name that is not one of the puzzle's roles.
    #[error("unknown role `{0}`")]
    UnknownRole(String),
    /// A character outside the language.
    #[error("unexpected character `{0}`")]
    UnexpectedChar(char),
    /// A `(` without its `)`.
    #[error("unbalanced parenthesis: this `(` is never closed")]
    UnclosedParen,
    /// A `)` without its `(`.
    #[error("unbalanced parenthesis: this `)` has no matching `(`")]
    UnmatchedParen,
    /// An operator with nothing (or something unusable) on its right.
    #[error("dangling operator: `{op}` needs an operand on its right, found {found}")]
    MissingOperand {
        /// The operator.
        op: String,
        /// What came instead.
        found: String,
    },
    /// Two operands side by side.
    #[error("expected an operator before {0}")]
    MissingOperator(String),
    /// The rule starts with something that cannot start an expression.
    #[error("expected a count, a role, `not`, `-` or `(`, found {0}")]
    ExpectedOperand(String),
    /// `not` inside arithmetic or a comparison, which bind more tightly (`b + not a`).
    #[error("`not` applies to a whole condition, so it cannot stand inside arithmetic or a comparison: put it in parentheses, as in `b + (not a)`")]
    NotInsideArithmetic,
    /// An integer literal beyond `i64`.
    #[error("integer `{0}` is too large")]
    IntegerTooLarge(String),
    /// `a < b < c`.
    #[error("comparisons do not chain: join them with `and`")]
    ChainedComparison,
    /// `=` where `==` was meant, and similar slips.
    #[error("`{found}` is not an operator: did you mean `{meant}`?")]
    DidYouMean {
        /// What was written.
        found: String,
        /// The operator of the language that was probably meant.
        meant: &'static str,
    },
    /// A rule longer than [`MAX_RULE_CHARS`].
    #[error("the rule is {chars} characters long, more than the {MAX_RULE_CHARS} accepted")]
    TooLong {
        /// The rule's length in characters.
        chars: usize,
    },
    /// A rule of more than [`MAX_RULE_NODES`] numbers, roles and operators.
    #[error("the rule has more than {MAX_RULE_NODES} numbers, roles and operators")]
    TooManyNodes,
    /// Too many nested parentheses or prefix operators.
    #[error("the rule is nested too deeply (at most {MAX_NESTING} levels)")]
    TooDeep,
}

/// A rule that could not be parsed: where (a 1-based column, in characters) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct RuleError {
    /// The 1-based column, counted in characters, of the offending token (one past the end of
    /// the rule when something is missing at its end).
    pub column: usize,
    /// What is wrong there.
    pub kind: RuleErrorKind,
}

/// One instruction of a compiled rule (postfix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Push(i64),
    Role(u16),
    Neg,
    Add,
    Sub,
    Mul,
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
    Not,
    /// Turns the top into 0 or 1.
    Truth,
    /// `and`'s short cut: if the top is 0, jump (keeping the 0); else pop it.
    AndJump(u32),
    /// `or`'s short cut: if the top is non-zero, make it 1 and jump; else pop it.
    OrJump(u32),
}

/// A compiled rule: its source text and postfix code over role indices.
///
/// ```
/// use frontier_river::Rule;
///
/// let roles = ["father", "mother", "girl"];
/// let rule = Rule::parse("father and girl -> mother", &roles).unwrap();
/// // counts of father, mother, girl on one bank:
/// assert!(!rule.holds(|role| [1, 0, 2][role]));
/// assert!(rule.holds(|role| [1, 1, 2][role]));
/// assert!(rule.holds(|role| [0, 0, 2][role]));
///
/// let err = Rule::parse("father and gril -> mother", &roles).unwrap_err();
/// assert_eq!(err.column, 12);
/// assert_eq!(err.to_string(), "column 12: unknown role `gril`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    source: String,
    code: Vec<Op>,
    /// The most values the code holds at once.
    height: usize,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl Rule {
    /// Parses `source`, resolving role names against `roles` (a name's index is its role number).
    ///
    /// A rule longer than [`MAX_RULE_CHARS`] is refused before it is read, and one of more than
    /// [`MAX_RULE_NODES`] instructions where it passes them.
    pub fn parse<S: AsRef<str>>(source: &str, roles: &[S]) -> Result<Rule, RuleError> {
        let chars = source.chars().count();
        if chars > MAX_RULE_CHARS {
            return Err(RuleError {
                column: MAX_RULE_CHARS + 1,
                kind: RuleErrorKind::TooLong { chars },
            });
        }
        let tokens = lex(source)?;
        let mut parser = Parser {
            tokens: &tokens,
            pos: 0,
            roles,
            code: Vec::new(),
            depth: 0,
            stack: 0,
            max_stack: 0,
            end_column: source.chars().count() + 1,
        };
        if tokens.is_empty() {
            return Err(RuleError {
                column: 1,
                kind: RuleErrorKind::Empty,
            });
        }
        parser.implies()?;
        if let Some(tok) = parser.peek() {
            let kind = match tok.kind {
                Tok::RParen => RuleErrorKind::UnmatchedParen,
                _ => RuleErrorKind::MissingOperator(tok.describe()),
            };
            return Err(RuleError {
                column: tok.column,
                kind,
            });
        }
        Ok(Rule {
            source: source.to_string(),
            code: parser.code,
            height: parser.max_stack,
        })
    }

    /// The rule as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The value of the rule when role `r` counts `count(r)`; callers pass only role numbers
    /// the rule was parsed with.
    #[inline]
    pub fn value(&self, count: impl Fn(usize) -> i64) -> i64 {
        if self.height <= SMALL_STACK {
            self.run::<SMALL_STACK>(count)
        } else {
            self.run::<STACK>(count)
        }
    }

    /// [`Rule::value`] on a stack of `N` values, at least the rule's height.
    #[inline]
    fn run<const N: usize>(&self, count: impl Fn(usize) -> i64) -> i64 {
        let mut stack = [0i64; N];
        let mut top = 0usize;
        let mut pc = 0usize;
        while let Some(op) = self.code.get(pc) {
            pc += 1;
            match *op {
                Op::Push(v) => {
                    stack[top] = v;
                    top += 1;
                }
                Op::Role(r) => {
                    stack[top] = count(usize::from(r));
                    top += 1;
                }
                Op::Neg => stack[top - 1] = stack[top - 1].saturating_neg(),
                Op::Not => stack[top - 1] = i64::from(stack[top - 1] == 0),
                Op::Truth => stack[top - 1] = i64::from(stack[top - 1] != 0),
                Op::AndJump(target) => {
                    if stack[top - 1] == 0 {
                        pc = target as usize;
                    } else {
                        top -= 1;
                    }
                }
                Op::OrJump(target) => {
                    if stack[top - 1] != 0 {
                        stack[top - 1] = 1;
                        pc = target as usize;
                    } else {
                        top -= 1;
                    }
                }
                binary => {
                    top -= 1;
                    let (a, b) = (stack[top - 1], stack[top]);
                    stack[top - 1] = match binary {
                        Op::Add => a.saturating_add(b),
                        Op::Sub => a.saturating_sub(b),
                        Op::Mul => a.saturating_mul(b),
                        Op::Lt => i64::from(a < b),
                        Op::Le => i64::from(a <= b),
                        Op::Eq => i64::from(a == b),
                        Op::Ne => i64::from(a != b),
                        Op::Ge => i64::from(a >= b),
                        Op::Gt => i64::from(a > b),
                        _ => unreachable!("unary, jump and leaf ops are handled above"),
                    };
                }
            }
        }
        stack[0]
    }

    /// The steps one evaluation takes: a measure of its cost.
    pub fn steps(&self) -> usize {
        self.code.len()
    }

    /// Whether the rule holds (its value is non-zero) when role `r` counts `count(r)`.
    #[inline]
    pub fn holds(&self, count: impl Fn(usize) -> i64) -> bool {
        self.value(count) != 0
    }

    /// The roles the rule mentions, by index (with repeats).
    pub fn roles(&self) -> impl Iterator<Item = usize> + '_ {
        self.code.iter().filter_map(|op| match op {
            Op::Role(r) => Some(usize::from(*r)),
            _ => None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Int(i64),
    Name(String),
    Plus,
    Minus,
    Star,
    LParen,
    RParen,
    Lt,
    Le,
    EqEq,
    Ne,
    Ge,
    Gt,
    And,
    Or,
    Not,
    Arrow,
}

#[derive(Clone, Debug)]
struct Token {
    kind: Tok,
    column: usize,
}

impl Token {
    fn text(&self) -> String {
        match &self.kind {
            Tok::Int(v) => v.to_string(),
            Tok::Name(n) => n.clone(),
            Tok::Plus => "+".into(),
            Tok::Minus => "-".into(),
            Tok::Star => "*".into(),
            Tok::LParen => "(".into(),
            Tok::RParen => ")".into(),
            Tok::Lt => "<".into(),
            Tok::Le => "<=".into(),
            Tok::EqEq => "==".into(),
            Tok::Ne => "!=".into(),
            Tok::Ge => ">=".into(),
            Tok::Gt => ">".into(),
            Tok::And => "and".into(),
            Tok::Or => "or".into(),
            Tok::Not => "not".into(),
            Tok::Arrow => "->".into(),
        }
    }

    fn describe(&self) -> String {
        match &self.kind {
            Tok::Int(v) => format!("the number {v}"),
            Tok::Name(n) => format!("`{n}`"),
            _ => format!("`{}`", self.text()),
        }
    }
}

fn lex(source: &str) -> Result<Vec<Token>, RuleError> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        let err = |kind| Err(RuleError { column, kind });
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).copied();
        let (kind, len) = match (c, next) {
            ('-', Some('>')) => (Tok::Arrow, 2),
            ('<', Some('=')) => (Tok::Le, 2),
            ('>', Some('=')) => (Tok::Ge, 2),
            ('=', Some('=')) => (Tok::EqEq, 2),
            ('!', Some('=')) => (Tok::Ne, 2),
            ('=', Some('>')) => {
                return err(RuleErrorKind::DidYouMean {
                    found: "=>".into(),
                    meant: "->",
                })
            }
            ('&', Some('&')) => {
                return err(RuleErrorKind::DidYouMean {
                    found: "&&".into(),
                    meant: "and",
                })
            }
            ('|', Some('|')) => {
                return err(RuleErrorKind::DidYouMean {
                    found: "||".into(),
                    meant: "or",
                })
            }
            ('=', _) => {
                return err(RuleErrorKind::DidYouMean {
                    found: "=".into(),
                    meant: "==",
                })
            }
            ('!', _) => {
                return err(RuleErrorKind::DidYouMean {
                    found: "!".into(),
                    meant: "not",
                })
            }
            ('+', _) => (Tok::Plus, 1),
            ('-', _) => (Tok::Minus, 1),
            ('*', _) => (Tok::Star, 1),
            ('(', _) => (Tok::LParen, 1),
            (')', _) => (Tok::RParen, 1),
            ('<', _) => (Tok::Lt, 1),
            ('>', _) => (Tok::Gt, 1),
            (c, _) if c.is_ascii_digit() => {
                let len = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                let text: String = chars[i..i + len].iter().collect();
                match text.parse::<i64>() {
                    Ok(v) => (Tok::Int(v), len),
                    Err(_) => return err(RuleErrorKind::IntegerTooLarge(text)),
                }
            }
            (c, _) if c.is_alphabetic() || c == '_' => {
                let len = chars[i..]
                    .iter()
                    .take_while(|c| c.is_alphanumeric() || **c == '_')
                    .count();
                let text: String = chars[i..i + len].iter().collect();
                let kind = match text.as_str() {
                    "and" => Tok::And,
                    "or" => Tok::Or,
                    "not" => Tok::Not,
                    _ => Tok::Name(text),
                };
                (kind, len)
            }
            (c, _) => return err(RuleErrorKind::UnexpectedChar(c)),
        };
        tokens.push(Token { kind, column });
        i += len;
    }
    Ok(tokens)
}

struct Parser<'a, S> {
    tokens: &'a [Token],
    pos: usize,
    roles: &'a [S],
    code: Vec<Op>,
    depth: usize,
    stack: usize,
    max_stack: usize,
    end_column: usize,
}

impl<S: AsRef<str>> Parser<'_, S> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn peek_kind(&self) -> Option<&Tok> {
        self.peek().map(|t| &t.kind)
    }

    fn eat(&mut self, kind: &Tok) -> bool {
        if self.peek_kind() == Some(kind) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Appends an instruction, keeping track of the evaluation stack it needs.
    fn emit(&mut self, op: Op, column: usize) -> Result<(), RuleError> {
        match op {
            Op::Push(_) | Op::Role(_) => {
                self.stack += 1;
                if self.stack > STACK {
                    return Err(RuleError {
                        column,
                        kind: RuleErrorKind::TooDeep,
                    });
                }
                self.max_stack = self.max_stack.max(self.stack);
            }
            Op::Neg | Op::Not | Op::Truth => {}
            _ => self.stack -= 1,
        }
        if self.code.len() == MAX_RULE_NODES {
            return Err(RuleError {
                column,
                kind: RuleErrorKind::TooManyNodes,
            });
        }
        self.code.push(op);
        Ok(())
    }

    /// Points the jump at `at` to the end of the code emitted so far.
    fn patch(&mut self, at: usize) {
        let end = self.code.len() as u32;
        match &mut self.code[at] {
            Op::AndJump(target) | Op::OrJump(target) => *target = end,
            _ => unreachable!("only jumps are patched"),
        }
    }

    fn nest(&mut self, column: usize) -> Result<(), RuleError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(RuleError {
                column,
                kind: RuleErrorKind::TooDeep,
            });
        }
        Ok(())
    }

    /// `a -> b -> c` is `not a or not b or c`: emitted as a flat chain of short cuts, so long
    /// chains need no recursion and one stack slot.
    fn implies(&mut self) -> Result<(), RuleError> {
        self.or()?;
        let mut jumps = Vec::new();
        while let Some(tok) = self.peek().filter(|t| t.kind == Tok::Arrow).cloned() {
            self.pos += 1;
            self.emit(Op::Not, tok.column)?;
            jumps.push(self.code.len());
            self.emit(Op::OrJump(0), tok.column)?;
            self.operand_after(&tok, Self::or)?;
        }
        if !jumps.is_empty() {
            self.emit(Op::Truth, self.end_column)?;
            for at in jumps {
                self.patch(at);
            }
        }
        Ok(())
    }

    fn or(&mut self) -> Result<(), RuleError> {
        self.and()?;
        while let Some(tok) = self.peek().filter(|t| t.kind == Tok::Or).cloned() {
            self.pos += 1;
            let at = self.code.len();
            self.emit(Op::OrJump(0), tok.column)?;
            self.operand_after(&tok, Self::and)?;
            self.emit(Op::Truth, tok.column)?;
            self.patch(at);
        }
        Ok(())
    }

    fn and(&mut self) -> Result<(), RuleError> {
        self.not()?;
        while let Some(tok) = self.peek().filter(|t| t.kind == Tok::And).cloned() {
            self.pos += 1;
            let at = self.code.len();
            self.emit(Op::AndJump(0), tok.column)?;
            self.operand_after(&tok, Self::not)?;
            self.emit(Op::Truth, tok.column)?;
            self.patch(at);
        }
        Ok(())
    }

    fn not(&mut self) -> Result<(), RuleError> {
        if let Some(tok) = self.peek().filter(|t| t.kind == Tok::Not).cloned() {
            self.pos += 1;
            self.nest(tok.column)?;
            self.operand_after(&tok, Self::not)?;
            self.depth -= 1;
            return self.emit(Op::Not, tok.column);
        }
        self.compare()
    }

    fn compare(&mut self) -> Result<(), RuleError> {
        self.sum()?;
        let op = |kind: &Tok| match kind {
            Tok::Lt => Some(Op::Lt),
            Tok::Le => Some(Op::Le),
            Tok::EqEq => Some(Op::Eq),
            Tok::Ne => Some(Op::Ne),
            Tok::Ge => Some(Op::Ge),
            Tok::Gt => Some(Op::Gt),
            _ => None,
        };
        if let Some(tok) = self.peek().cloned() {
            if let Some(code) = op(&tok.kind) {
                self.pos += 1;
                self.operand_after(&tok, Self::sum)?;
                self.emit(code, tok.column)?;
                if let Some(again) = self.peek().filter(|t| op(&t.kind).is_some()) {
                    return Err(RuleError {
                        column: again.column,
                        kind: RuleErrorKind::ChainedComparison,
                    });
                }
            }
        }
        Ok(())
    }

    fn sum(&mut self) -> Result<(), RuleError> {
        self.product()?;
        while let Some(tok) = self
            .peek()
            .filter(|t| matches!(t.kind, Tok::Plus | Tok::Minus))
            .cloned()
        {
            self.pos += 1;
            self.operand_after(&tok, Self::product)?;
            let op = if tok.kind == Tok::Plus {
                Op::Add
            } else {
                Op::Sub
            };
            self.emit(op, tok.column)?;
        }
        Ok(())
    }

    fn product(&mut self) -> Result<(), RuleError> {
        self.unary()?;
        while let Some(tok) = self.peek().filter(|t| t.kind == Tok::Star).cloned() {
            self.pos += 1;
            self.operand_after(&tok, Self::unary)?;
            self.emit(Op::Mul, tok.column)?;
        }
        Ok(())
    }

    /// Parses the right operand of `op` with `parse`, reporting a dangling operator when there
    /// is none.
    fn operand_after(
        &mut self,
        op: &Token,
        parse: fn(&mut Self) -> Result<(), RuleError>,
    ) -> Result<(), RuleError> {
        if !self.starts_operand() {
            let (column, found) = match self.peek() {
                Some(t) => (t.column, t.describe()),
                None => (self.end_column, "the end of the rule".to_string()),
            };
            return Err(RuleError {
                column,
                kind: RuleErrorKind::MissingOperand {
                    op: op.text(),
                    found,
                },
            });
        }
        parse(self)
    }

    fn starts_operand(&self) -> bool {
        matches!(
            self.peek_kind(),
            Some(Tok::Int(_) | Tok::Name(_) | Tok::LParen | Tok::Minus | Tok::Not)
        )
    }

    fn unary(&mut self) -> Result<(), RuleError> {
        let Some(tok) = self.peek().cloned() else {
            return Err(RuleError {
                column: self.end_column,
                kind: RuleErrorKind::ExpectedOperand("the end of the rule".into()),
            });
        };
        match &tok.kind {
            Tok::Minus => {
                self.pos += 1;
                self.nest(tok.column)?;
                self.operand_after(&tok, Self::unary)?;
                self.depth -= 1;
                self.emit(Op::Neg, tok.column)
            }
            Tok::Int(v) => {
                self.pos += 1;
                self.emit(Op::Push(*v), tok.column)
            }
            Tok::Name(name) => {
                self.pos += 1;
                match self.roles.iter().position(|r| r.as_ref() == name) {
                    Some(index) if index <= usize::from(u16::MAX) => {
                        self.emit(Op::Role(index as u16), tok.column)
                    }
                    _ => Err(RuleError {
                        column: tok.column,
                        kind: RuleErrorKind::UnknownRole(name.clone()),
                    }),
                }
            }
            Tok::LParen => {
                self.pos += 1;
                self.nest(tok.column)?;
                if !self.starts_operand() {
                    let (column, kind) = match self.peek() {
                        Some(t) if t.kind == Tok::RParen => (
                            t.column,
                            RuleErrorKind::ExpectedOperand("`)`: the parentheses are empty".into()),
                        ),
                        Some(t) => (t.column, RuleErrorKind::ExpectedOperand(t.describe())),
                        None => (tok.column, RuleErrorKind::UnclosedParen),
                    };
                    return Err(RuleError { column, kind });
                }
                self.implies()?;
                if !self.eat(&Tok::RParen) {
                    return Err(match self.peek() {
                        None => RuleError {
                            column: tok.column,
                            kind: RuleErrorKind::UnclosedParen,
                        },
                        Some(t) => RuleError {
                            column: t.column,
                            kind: RuleErrorKind::MissingOperator(t.describe()),
                        },
                    });
                }
                self.depth -= 1;
                Ok(())
            }
            Tok::RParen => Err(RuleError {
                column: tok.column,
                kind: RuleErrorKind::UnmatchedParen,
            }),
            Tok::Not => Err(RuleError {
                column: tok.column,
                kind: RuleErrorKind::NotInsideArithmetic,
            }),
            _ => Err(RuleError {
                column: tok.column,
                kind: RuleErrorKind::ExpectedOperand(tok.describe()),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROLES: [&str; 4] = ["a", "b", "c", "d"];

    fn eval(src: &str, counts: [i64; 4]) -> i64 {
        Rule::parse(src, &ROLES).unwrap().value(|r| counts[r])
    }

    fn err(src: &str) -> RuleError {
        Rule::parse(src, &ROLES).unwrap_err()
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(eval("1 + 2 * 3", [0; 4]), 7);
        assert_eq!(eval("(1 + 2) * 3", [0; 4]), 9);
        assert_eq!(eval("10 - 3 - 2", [0; 4]), 5);
        assert_eq!(eval("-a + b", [2, 5, 0, 0]), 3);
        assert_eq!(eval("- - a", [2, 0, 0, 0]), 2);
        assert_eq!(eval("a + b >= c * 2", [1, 1, 1, 0]), 1);
        assert_eq!(eval("a + b >= c * 2", [1, 0, 1, 0]), 0);
        // `not` binds looser than comparisons, tighter than `and`.
        assert_eq!(eval("not a == b", [1, 1, 0, 0]), 0);
        assert_eq!(eval("not a and b", [0, 1, 0, 0]), 1);
        assert_eq!(eval("a or b and c", [1, 0, 0, 0]), 1);
        assert_eq!(eval("a or b and c", [0, 1, 0, 0]), 0);
    }

    #[test]
    fn tall_rules_take_the_large_stack() {
        // Twelve values held at once: past the small stack, on the large one.
        let tall = "a + (b + (c + (d + (1 + (2 + (3 + (4 + (5 + (6 + (7 + 8))))))))))";
        let rule = Rule::parse(tall, &ROLES).unwrap();
        assert_eq!(rule.height, 12);
        assert_eq!(rule.value(|r| [1, 2, 3, 4][r]), 46);
        assert_eq!(Rule::parse("a + b * c", &ROLES).unwrap().height, 3);
    }

    #[test]
    fn arithmetic_saturates_instead_of_wrapping() {
        // Wrapped, 2^62 * 2 was negative and the rule false.
        assert_eq!(eval("4611686018427387904 * 2 > 0", [0; 4]), 1);
        assert_eq!(eval("4611686018427387904 * 2", [0; 4]), i64::MAX);
        assert_eq!(eval("0 - 9223372036854775807 - 10 < 0", [0; 4]), 1);
        assert_eq!(eval("-(0 - 9223372036854775807 - 1)", [0; 4]), i64::MAX);
        assert_eq!(eval("9223372036854775807 + a > 0", [5, 0, 0, 0]), 1);
    }

    #[test]
    fn implication_is_right_associative() {
        // (a -> b) -> c differs from a -> (b -> c) when a = 0, c = 0.
        for bits in 0..8i64 {
            let (a, b, c) = (bits & 1, (bits >> 1) & 1, (bits >> 2) & 1);
            let counts = [a, b, c, 0];
            let right = i64::from(a == 0 || b == 0 || c != 0);
            assert_eq!(eval("a -> b -> c", counts), right, "{counts:?}");
            assert_eq!(eval("a -> (b -> c)", counts), right);
            let left = i64::from(!(a == 0 || b != 0) || c != 0);
            assert_eq!(eval("(a -> b) -> c", counts), left);
            let d4 = [a, b, c, 1 - c];
            let four = i64::from(a == 0 || b == 0 || c == 0 || d4[3] != 0);
            assert_eq!(eval("a -> b -> c -> d", d4), four);
        }
        // Implication binds looser than `or`.
        assert_eq!(eval("a or b -> c", [0, 1, 0, 0]), 0);
    }

    #[test]
    fn counts_as_truth_values() {
        assert_eq!(eval("a and b", [2, 3, 0, 0]), 1);
        assert_eq!(eval("a", [5, 0, 0, 0]), 5);
        assert_eq!(eval("a and (b + c)", [1, 0, 0, 0]), 0);
    }

    #[test]
    fn errors_point_at_the_place() {
        let e = err("a and e -> b");
        assert_eq!(
            (e.column, e.kind),
            (7, RuleErrorKind::UnknownRole("e".into()))
        );
        let e = err("(a and b -> c");
        assert_eq!((e.column, e.kind), (1, RuleErrorKind::UnclosedParen));
        let e = err("a and b) -> c");
        assert_eq!((e.column, e.kind), (8, RuleErrorKind::UnmatchedParen));
        let e = err("a and -> c");
        assert_eq!(e.column, 7);
        assert!(matches!(e.kind, RuleErrorKind::MissingOperand { ref op, .. } if op == "and"));
        let e = err("a +");
        assert_eq!(e.column, 4);
        assert!(e.to_string().contains("dangling operator"), "{e}");
        assert_eq!(
            err("a b").kind,
            RuleErrorKind::MissingOperator("`b`".into())
        );
        assert_eq!(err("a < b < c").kind, RuleErrorKind::ChainedComparison);
        assert_eq!(err("a < b < c").column, 7);
        assert_eq!(err("   ").kind, RuleErrorKind::Empty);
        assert_eq!(err("a = b").column, 3);
        assert_eq!(err("a => b").column, 3);
        assert_eq!(err("a ? b").kind, RuleErrorKind::UnexpectedChar('?'));
        assert_eq!(err("()").column, 2);
        assert!(matches!(
            err("99999999999999999999").kind,
            RuleErrorKind::IntegerTooLarge(_)
        ));
        // `not` binds more loosely than arithmetic and comparisons: it needs parentheses
        // there (the message listed `not` among what it expected, then refused it).
        for (rule, column) in [("b + not a", 5), ("a < not b", 5), ("-not a", 2)] {
            let e = err(rule);
            assert_eq!(
                (e.column, e.kind),
                (column, RuleErrorKind::NotInsideArithmetic),
                "{rule}"
            );
        }
        // Columns count characters, not bytes.
        assert_eq!(err("é + zz").column, 1);
        assert_eq!(err("a + é").column, 5);
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(err(&deep).kind, RuleErrorKind::TooDeep);
        let nots = format!("{}a", "not ".repeat(10_000));
        assert_eq!(err(&nots).kind, RuleErrorKind::TooDeep);
        // Long flat chains are fine: they need neither recursion nor stack.
        let chain = vec!["a"; 10_000].join(" + ");
        assert_eq!(eval(&chain, [1, 0, 0, 0]), 10_000);
        let arrows = vec!["a"; 10_000].join(" -> ");
        assert_eq!(eval(&arrows, [1, 0, 0, 0]), 1);
        let mixed = vec!["a * b"; 1000].join(" + ");
        assert_eq!(eval(&mixed, [2, 3, 0, 0]), 6000);
    }

    #[test]
    fn arithmetic_overflow_saturates_instead_of_panicking() {
        // Past the ends of i64 a value stops at i64::MAX or i64::MIN: the evaluation returns
        // (overflowing arithmetic panics in a debug build) and the sign stays right.
        let big = format!("{} * {} + {}", i64::MAX, i64::MAX, i64::MAX);
        assert_eq!(eval(&big, [0; 4]), i64::MAX);
        assert_eq!(eval("-9223372036854775807 - 2", [0; 4]), i64::MIN);
        assert_eq!(eval("-(-9223372036854775807 - 2)", [0; 4]), i64::MAX);
        assert_eq!(eval("0 - a * b", [i64::MAX, 2, 0, 0]), -i64::MAX);
        assert_eq!(eval("a * b - c", [i64::MAX, -2, 5, 0]), i64::MIN);
        // A literal past i64 is refused when parsed, never evaluated.
        assert_eq!(
            err("9223372036854775808 > a").kind,
            RuleErrorKind::IntegerTooLarge("9223372036854775808".to_owned())
        );
    }
}
