"""Render bench:structure's workbook models (officemodel.ts) to XLSX with openpyxl.

    python render-xlsx.py jobs.json

jobs.json: [{"model": WorkbookModel, "out": "/path/to/file.xlsx"}, ...]. One
worksheet per sheet of the model, in order, named as the model names it; the
used range starts at the model's origin; strings are strings; numbers,
dates, times and dates with times are serial numbers with the model's number
format; booleans are booleans; the header row is bold; comments are legacy
cell comments (notes).
"""

import datetime
import json
import sys

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter


def render(model, out):
    wb = Workbook()
    wb.remove(wb.active)
    for sheet in model["sheets"]:
        ws = wb.create_sheet(title=sheet["name"])
        r0, c0 = sheet["origin"]["row"], sheet["origin"]["col"]
        for i, row in enumerate(sheet["rows"]):
            for j, c in enumerate(row):
                if c is None:
                    continue
                cell = ws.cell(row=r0 + i, column=c0 + j)
                if c["kind"] == "string":
                    cell.value = c["value"]
                    cell.data_type = "s"
                elif c["kind"] == "number":
                    cell.value = c["value"]
                    cell.number_format = c["format"]
                elif c["kind"] == "bool":
                    cell.value = bool(c["value"])
                elif c["kind"] == "date":
                    cell.value = datetime.date.fromisoformat(c["value"])
                    cell.number_format = c["format"]
                elif c["kind"] == "datetime":
                    cell.value = datetime.datetime.fromisoformat(c["value"])
                    cell.number_format = c["format"]
                else:
                    cell.value = datetime.time.fromisoformat(c["value"])
                    cell.number_format = c["format"]
                if i == 0:
                    cell.font = Font(bold=True)
        for j in range(max(len(r) for r in sheet["rows"])):
            ws.column_dimensions[get_column_letter(c0 + j)].width = 16
        for cm in sheet["comments"]:
            ws.cell(row=r0 + cm["row"], column=c0 + cm["col"]).comment = Comment(cm["text"], cm["author"])
    wb.properties.creator = "docex bench:structure"
    wb.save(out)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = json.load(f)
    for job in jobs:
        render(job["model"], job["out"])


if __name__ == "__main__":
    main()
