-- A form can be retired (`forms remove`): it is no longer listed nor chosen for a workbook,
-- and a submit naming it is refused; its versions, its table and its rows stay. Adding the
-- form again clears it.
ALTER TABLE forms
    ADD COLUMN retired_at timestamptz;
