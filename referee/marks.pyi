from typing import final as final

from mypy_extensions import mypyc_attr as mypyc_attr
