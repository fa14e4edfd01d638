package io.sf2loki.salesforce.soql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class SoqlTest {

  @Test
  void buildsTheEventLogFileListingShapeExactly() {
    String q =
        SoqlQuery.select(
                "Id",
                "EventType",
                "Interval",
                "LogDate",
                "CreatedDate",
                "LogFileLength",
                "Sequence")
            .from("EventLogFile")
            .where(Condition.equalTo("EventType", Soql.stringLiteral("Login")))
            .where(Condition.equalTo("Interval", Soql.intervalLiteral("Hourly")))
            .where(
                Condition.atLeast(
                    "CreatedDate", Soql.datetimeLiteral(Instant.parse("2026-06-30T01:00:00Z"))))
            .orderBy("CreatedDate", "Id")
            .limit(1000)
            .build();
    assertThat(q)
        .isEqualTo(
            "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence FROM"
                + " EventLogFile WHERE EventType='Login' AND Interval='Hourly' AND CreatedDate >="
                + " 2026-06-30T01:00:00.000Z ORDER BY CreatedDate, Id LIMIT 1000");
  }

  @Test
  void buildsNestedCursorConditions() {
    String lit = Soql.datetimeLiteral(Instant.parse("2026-06-30T01:00:00Z"));
    Condition c =
        Condition.anyOf(
            Condition.compare("EventDate", ">", lit),
            Condition.allOf(
                Condition.compare("EventDate", "=", lit),
                Condition.compare("Id", ">", Soql.idLiteral("0Yw000000000001AAA"))));
    assertThat(c.text())
        .isEqualTo(
            "(EventDate > 2026-06-30T01:00:00.000Z OR (EventDate = 2026-06-30T01:00:00.000Z AND"
                + " Id > '0Yw000000000001AAA'))");
  }

  @Test
  void identifiersWithAnythingButWordCharactersAreRefused() {
    assertThatThrownBy(() -> Soql.identifier("Login' OR Name != '"))
        .isInstanceOf(InvalidSoqlValueException.class);
    assertThatThrownBy(() -> SoqlQuery.select("Id").from("Account WHERE"))
        .isInstanceOf(InvalidSoqlValueException.class);
    assertThatThrownBy(() -> SoqlQuery.select("Id").orderBy("Id; DROP"))
        .isInstanceOf(InvalidSoqlValueException.class);
  }

  @Test
  void recordIdsFromCheckpointsAreValidated() {
    assertThat(Soql.idLiteral("0AT000000000001")).isEqualTo("'0AT000000000001'");
    assertThatThrownBy(() -> Soql.idLiteral("0AT0000000000' OR Id != '"))
        .isInstanceOf(InvalidSoqlValueException.class);
  }

  @Test
  void stringLiteralsEscapeQuotesBackslashesAndControls() {
    assertThat(Soql.stringLiteral("it's a \\ \"q\"\n\t"))
        .isEqualTo("'it\\'s a \\\\ \\\"q\\\"\\n\\t'");
  }

  @Test
  void intervalMustBeHourlyOrDaily() {
    assertThatThrownBy(() -> Soql.intervalLiteral("Weekly"))
        .isInstanceOf(InvalidSoqlValueException.class);
  }

  @Test
  void usernamesAreValidated() {
    assertThat(Soql.usernameLiteral("a.b+c@example.com")).isEqualTo("'a.b+c@example.com'");
    assertThatThrownBy(() -> Soql.usernameLiteral("a'b"))
        .isInstanceOf(InvalidSoqlValueException.class);
  }

  @Test
  void isIdentifierAcceptsApiNamesAndRejectsAnythingElse() {
    assertThat(Soql.isIdentifier("Order_Event__c")).isTrue();
    assertThat(Soql.isIdentifier("Bad Name")).isFalse();
    assertThat(Soql.isIdentifier("")).isFalse();
    assertThat(Soql.isIdentifier(null)).isFalse();
  }
}
