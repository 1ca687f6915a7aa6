"""What the sender gets back: the rejected rows as an error workbook or CSV."""
