return { onUpdate = 5 }
