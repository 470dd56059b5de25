<?xml version="1.0" encoding="UTF-8"?>
<!-- numbered lists: how many items before the break -->
<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="1.0">
  <xsl:param name="max" select="10"/>
  <xsl:template match="orderedlist">
    <xsl:variable name="count" select="count(listitem)"/>
    <ol>
      <xsl:if test="$count <= $max">
        <xsl:attribute name="class">short</xsl:attribute>
      </xsl:if>
      <xsl:apply-templates select="listitem"/>
    </ol>
  </xsl:template>
</xsl:stylesheet>
