package io.ytstream.types.v3;

import java.util.Objects;

/** {@code optional<item>}: a value of the item type, or null. Optionals nest. */
public record YtOptional(YtType item) implements YtType {

  public YtOptional {
    Objects.requireNonNull(item, "optional item type");
  }

  @Override
  public String describe() {
    return "optional<" + item.describe() + ">";
  }

  @Override
  public boolean isNullable() {
    return true;
  }
}
