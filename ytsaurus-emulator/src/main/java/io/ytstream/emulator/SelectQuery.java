package io.ytstream.emulator;

import io.ytstream.core.model.YPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The subset of the query language the emulator evaluates: {@code <columns|*> from [<path>] [where
 * <cond> [and <cond>]...] [limit <n>]}, where a condition compares one column with a literal
 * ({@code = != < <= > >=}, or {@code between a and b}). Column names may be bracketed ({@code
 * [$row_index]}); literals are strings in double or single quotes, integers (an optional {@code u}
 * suffix), {@code %true}/{@code %false}. Anything else is refused with a clear error.
 */
record SelectQuery(List<String> columns, YPath table, List<Condition> conditions, long limit) {

  /** The query language's keywords ({@code lexer.rl6}); none is a bare column name. */
  static final java.util.Set<String> KEYWORDS =
      java.util.Set.of(
          "select",
          "from",
          "where",
          "having",
          "offset",
          "limit",
          "join",
          "array",
          "using",
          "asc",
          "desc",
          "left",
          "as",
          "on",
          "unnest",
          "and",
          "or",
          "is",
          "not",
          "null",
          "between",
          "in",
          "transform",
          "false",
          "true",
          "inf",
          "case",
          "when",
          "then",
          "else",
          "end",
          "like",
          "ilike",
          "rlike",
          "regexp",
          "escape",
          "cast");

  /** One comparison; {@code upper} is set for {@code between}. */
  record Condition(String column, String operator, Object value, Object upper) {

    boolean test(Map<String, Object> row) {
      Object actual = row.get(column);
      return switch (operator) {
        case "=" -> equal(actual, value);
        case "!=" -> !equal(actual, value);
        case "<" -> compare(actual, value) < 0;
        case "<=" -> compare(actual, value) <= 0;
        case ">" -> compare(actual, value) > 0;
        case ">=" -> compare(actual, value) >= 0;
        case "between" -> compare(actual, value) >= 0 && compare(actual, upper) <= 0;
        default -> throw new IllegalStateException(operator);
      };
    }

    private static boolean equal(Object a, Object b) {
      if (a instanceof Number x && b instanceof Number y) {
        return x.doubleValue() == y.doubleValue();
      }
      return Objects.equals(a, b);
    }

    private static int compare(Object a, Object b) {
      if (a == null || b == null) {
        return a == null ? (b == null ? 0 : -1) : 1;
      }
      if (a instanceof Number x && b instanceof Number y) {
        return Double.compare(x.doubleValue(), y.doubleValue());
      }
      return String.valueOf(a).compareTo(String.valueOf(b));
    }
  }

  /** The value {@code column = value} demands, if a condition says so. */
  Optional<Object> equalityOn(String column) {
    for (Condition condition : conditions) {
      if (condition.column().equals(column) && condition.operator().equals("=")) {
        return Optional.ofNullable(condition.value());
      }
    }
    return Optional.empty();
  }

  boolean matches(Map<String, Object> row) {
    return conditions.stream().allMatch(c -> c.test(row));
  }

  Map<String, Object> project(Map<String, Object> row) {
    if (columns.isEmpty()) {
      return row;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (String column : columns) {
      out.put(column, row.get(column));
    }
    return out;
  }

  static SelectQuery parse(String text) {
    return new Parser(text).parse();
  }

  private static final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text;
    }

    SelectQuery parse() {
      List<String> columns = new ArrayList<>();
      skipSpace();
      if (peek() == '*') {
        pos++;
      } else {
        do {
          columns.add(column());
          skipSpace();
        } while (consume(','));
      }
      keyword("from");
      skipSpace();
      expect('[');
      int end = text.indexOf(']', pos);
      if (end < 0) {
        throw unsupported("unterminated table path");
      }
      YPath table = CommandRequest.parsePath(text.substring(pos, end));
      pos = end + 1;
      List<Condition> conditions = new ArrayList<>();
      long limit = Long.MAX_VALUE;
      skipSpace();
      if (atKeyword("where")) {
        keyword("where");
        do {
          conditions.add(condition());
          skipSpace();
        } while (atKeyword("and") && keyword("and"));
      }
      skipSpace();
      if (atKeyword("limit")) {
        keyword("limit");
        skipSpace();
        Object value = literal();
        if (!(value instanceof Long n) || n < 0) {
          throw unsupported("limit must be a non-negative integer");
        }
        limit = n;
      }
      skipSpace();
      if (pos < text.length()) {
        throw unsupported("unexpected text at position " + pos + ": '" + text.substring(pos) + "'");
      }
      return new SelectQuery(columns, table, conditions, limit);
    }

    private Condition condition() {
      skipSpace();
      String column = column();
      skipSpace();
      if (atKeyword("between")) {
        keyword("between");
        Object low = literal();
        keyword("and");
        Object high = literal();
        return new Condition(column, "between", low, high);
      }
      String operator;
      if (text.startsWith("!=", pos) || text.startsWith("<=", pos) || text.startsWith(">=", pos)) {
        operator = text.substring(pos, pos + 2);
        pos += 2;
      } else if (pos < text.length() && "=<>".indexOf(text.charAt(pos)) >= 0) {
        operator = String.valueOf(text.charAt(pos));
        pos++;
      } else {
        throw unsupported("expected a comparison after column " + column);
      }
      return new Condition(column, operator, literal(), null);
    }

    private String column() {
      skipSpace();
      if (consume('[')) {
        int end = text.indexOf(']', pos);
        if (end < 0) {
          throw unsupported("unterminated column name");
        }
        String name = text.substring(pos, end);
        pos = end + 1;
        return name;
      }
      // yt/yt/library/query/base/lexer.rl6: a bare identifier is [a-zA-Z_][a-zA-Z_0-9]* and not a
      // keyword (offset, limit, from, ...); anything else, $-names included, needs [brackets].
      int start = pos;
      while (pos < text.length() && isIdentifierChar(text.charAt(pos), pos == start)) {
        pos++;
      }
      if (start == pos) {
        throw unsupported(
            "expected a column name at position " + pos + " (write [name] for names with $)");
      }
      String name = text.substring(start, pos);
      if (KEYWORDS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
        throw unsupported(
            "\""
                + name
                + "\" at position "
                + start
                + " is a keyword; quote the column as ["
                + name
                + "]");
      }
      return name;
    }

    private static boolean isIdentifierChar(char c, boolean first) {
      return (c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || c == '_'
          || (!first && c >= '0' && c <= '9');
    }

    private Object literal() {
      skipSpace();
      char c = peek();
      if (c == '"' || c == '\'') {
        pos++;
        StringBuilder out = new StringBuilder();
        while (pos < text.length() && text.charAt(pos) != c) {
          char next = text.charAt(pos++);
          if (next == '\\' && pos < text.length()) {
            next = text.charAt(pos++);
          }
          out.append(next);
        }
        expect(c);
        return out.toString();
      }
      if (text.startsWith("%true", pos) || text.startsWith("true", pos)) {
        pos += text.startsWith("%", pos) ? 5 : 4;
        return Boolean.TRUE;
      }
      if (text.startsWith("%false", pos) || text.startsWith("false", pos)) {
        pos += text.startsWith("%", pos) ? 6 : 5;
        return Boolean.FALSE;
      }
      int start = pos;
      if (c == '-') {
        pos++;
      }
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      if (start == pos || (c == '-' && pos == start + 1)) {
        throw unsupported("expected a literal at position " + start);
      }
      long value = Long.parseLong(text.substring(start, pos));
      if (pos < text.length() && text.charAt(pos) == 'u') {
        pos++;
      }
      return value;
    }

    private boolean atKeyword(String word) {
      skipSpace();
      return text.regionMatches(true, pos, word, 0, word.length())
          && (pos + word.length() >= text.length()
              || !Character.isLetterOrDigit(text.charAt(pos + word.length())));
    }

    private boolean keyword(String word) {
      if (!atKeyword(word)) {
        throw unsupported("expected '" + word.toUpperCase(Locale.ROOT) + "' at position " + pos);
      }
      pos += word.length();
      return true;
    }

    private char peek() {
      return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private boolean consume(char c) {
      skipSpace();
      if (peek() == c) {
        pos++;
        return true;
      }
      return false;
    }

    private void expect(char c) {
      if (!consume(c)) {
        throw unsupported("expected '" + c + "' at position " + pos);
      }
    }

    private void skipSpace() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
    }

    private CommandError unsupported(String detail) {
      return CommandError.badRequest(
          "Error parsing query \""
              + text
              + "\": "
              + detail
              + " (the emulator supports"
              + " 'columns from [path] where col = literal and ... limit n')");
    }
  }
}
