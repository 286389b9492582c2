package io.ytstream.types.v3;

import java.util.List;

/** {@code tuple<type;...>}: unnamed fields in order. */
public record YtTuple(List<YtType> elements) implements YtType {

  public YtTuple {
    elements = Members.checkedElements("tuple", elements);
  }

  @Override
  public String describe() {
    return Members.describeElements("tuple", elements);
  }

  @Override
  public boolean isNullable() {
    return false;
  }
}
