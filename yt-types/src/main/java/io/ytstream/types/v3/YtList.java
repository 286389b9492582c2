package io.ytstream.types.v3;

import java.util.Objects;

/** {@code list<item>}. */
public record YtList(YtType item) implements YtType {

  public YtList {
    Objects.requireNonNull(item, "list item type");
  }

  @Override
  public String describe() {
    return "list<" + item.describe() + ">";
  }

  @Override
  public boolean isNullable() {
    return false;
  }
}
